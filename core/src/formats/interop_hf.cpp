// Hugging Face transformers config.json -> ModelSpec (docs/interop.md has the mapping table).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <exception>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "comet/check.hpp"
#include "comet/interop.hpp"
#include "comet/report.hpp"
#include "comet/workload.hpp"
#include "formats/json_reader.hpp"

namespace comet {

namespace {

using nlohmann::json;

enum class Arch { llama, mistral, qwen2, qwen3, mixtral, qwen2_moe, qwen3_moe, deepseek, gpt_oss, llama4 };

struct ArchName {
    std::string_view name;
    Arch arch;
};

constexpr std::array<ArchName, 12> arch_names{{{"LlamaForCausalLM", Arch::llama},
                                               {"MistralForCausalLM", Arch::mistral},
                                               {"Qwen2ForCausalLM", Arch::qwen2},
                                               {"Qwen3ForCausalLM", Arch::qwen3},
                                               {"MixtralForCausalLM", Arch::mixtral},
                                               {"Qwen2MoeForCausalLM", Arch::qwen2_moe},
                                               {"Qwen3MoeForCausalLM", Arch::qwen3_moe},
                                               {"DeepseekV2ForCausalLM", Arch::deepseek},
                                               {"DeepseekV3ForCausalLM", Arch::deepseek},
                                               {"GptOssForCausalLM", Arch::gpt_oss},
                                               {"Llama4ForConditionalGeneration", Arch::llama4},
                                               {"Llama4ForCausalLM", Arch::llama4}}};

// transformers' model_type of the same families (Kimi K2 is DeepSeek-V3's architecture): used
// when `architectures` is missing or names no supported class. Llama 4's multimodal config
// (llama4) nests the text model under `text_config`; a text-only one (llama4_text) does not.
constexpr std::array<ArchName, 13> model_types{{{"llama", Arch::llama},
                                                {"mistral", Arch::mistral},
                                                {"qwen2", Arch::qwen2},
                                                {"qwen3", Arch::qwen3},
                                                {"mixtral", Arch::mixtral},
                                                {"qwen2_moe", Arch::qwen2_moe},
                                                {"qwen3_moe", Arch::qwen3_moe},
                                                {"deepseek_v2", Arch::deepseek},
                                                {"deepseek_v3", Arch::deepseek},
                                                {"kimi_k2", Arch::deepseek},
                                                {"gpt_oss", Arch::gpt_oss},
                                                {"llama4", Arch::llama4},
                                                {"llama4_text", Arch::llama4}}};

// Limits of the attention keys (check_config's ranges for the same fields).
constexpr long long max_lora_rank = 1048576;
constexpr long long max_head_dim = 65536;
constexpr long long max_window = 67108864;

// Limits of the MoE keys (the layer and width limits are check_config's).
constexpr long long max_experts = 65536;
constexpr long long max_shared = 1024;
constexpr long long max_width = 16777216;
constexpr long long max_layers = 100000;

std::string billions(double params) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2fB", params / 1e9);
    return buf;
}

struct HfReader {
    ObjectReader& o;
    ImportResult& res;
    std::string label;
    std::vector<std::string> used{};
    std::map<std::string, std::string> origin{};  // Config key path -> "<file>: <hf key>"

    // `key` with the path of the object read (Llama 4: "text_config.hidden_size"); notes in
    // parentheses ("(no shared experts)") stay as they are.
    [[nodiscard]] std::string path(std::string_view key) const {
        if (o.path().empty() || key.empty() || key.starts_with("(")) return std::string(key);
        return o.path() + "." + std::string(key);
    }
    void map(std::string_view key, const std::string& to, const std::string& value) {
        res.mapped.push_back(path(key) + " -> " + to + " = " + value);
        origin[to] = label + ": " + path(key);
    }
    void warn(std::string_view key, const std::string& text) {
        std::string line = label + ": ";
        if (!key.empty()) line += path(key) + (text.starts_with("= ") ? " " : ": ");
        res.warnings.push_back(line + text);
    }
    // Marks `key` used; true when present and not null.
    bool present(std::string_view key) {
        used.emplace_back(key);
        o.allow(key);
        const json* v = o.value(key);
        return v && !v->is_null();
    }
    template <class T>
    bool get_int(std::string_view key, T& out, bool required) {
        if (!present(key)) {
            if (required) o.error(key, o.has(key) ? "is null (an integer is required)" : "missing (required)");
            return false;
        }
        return o.optional_int(key, out);
    }
    bool get_bool(std::string_view key, bool& out) { return present(key) && o.optional_bool(key, out); }
    bool get_number(std::string_view key, double& out) { return present(key) && o.optional_number(key, out); }
    bool get_string(std::string_view key, std::string& out) { return present(key) && o.optional_string(key, out); }
};

// RoPE scaling (`rope_scaling`). Only YaRN's attention scale changes the cost: Megatron-Core's
// fused RoPE kernel takes no scale, so any other than 1 runs the unfused RoPE
// (ModelSpec::rope_mscale). The scale as transformers computes it: `attention_factor` when
// given, else m(factor, mscale) / m(factor, mscale_all_dim) when both are given, else
// m(factor, 1), with m(s, k) = 0.1 k ln(s) + 1 (1 for s <= 1). Other scalings move positions
// only and are dropped.
void import_rope_scaling(HfReader& h, ModelSpec& m) {
    if (!h.present("rope_scaling")) return;
    const json& rs = *h.o.value("rope_scaling");
    if (!rs.is_object()) {
        h.o.value_error("rope_scaling", "must be an object or null");
        return;
    }
    const auto text = [&](const char* key) -> std::string {
        const auto it = rs.find(key);
        return it != rs.end() && it->is_string() ? it->get<std::string>() : std::string{};
    };
    std::string type = text("rope_type");
    if (type.empty()) type = text("type");
    if (type != "yarn") {
        h.warn("rope_scaling", "RoPE scaling costs nothing in COMET: dropped");
        return;
    }
    bool ok = true;
    const auto number = [&](const char* key, double lo, double hi) -> std::optional<double> {
        const auto it = rs.find(key);
        if (it == rs.end() || it->is_null()) return std::nullopt;
        const std::string k = std::string("rope_scaling.") + key;
        if (!it->is_number()) {
            h.o.value_error(k, "must be a number from " + format_printf("%.6g", lo) + " to " + format_printf("%.6g", hi));
            ok = false;
            return std::nullopt;
        }
        const double v = it->get<double>();
        if (!(v >= lo && v <= hi)) {
            h.o.value_error(k, "= " + format_printf("%.6g", v) + ": must be a number from " + format_printf("%.6g", lo) + " to " +
                                   format_printf("%.6g", hi));
            ok = false;
            return std::nullopt;
        }
        return v;
    };
    const auto factor = number("factor", 0, 1e6);
    const auto attention = number("attention_factor", 0.001, 100);
    const auto mscale = number("mscale", 0, 1e3);
    const auto mscale_all = number("mscale_all_dim", 0, 1e3);
    if (!ok) return;
    const auto scale = [](double s, double k) { return s <= 1 ? 1.0 : 0.1 * k * std::log(s) + 1.0; };
    const double s = factor.value_or(1.0);
    const double v = attention ? *attention : mscale && mscale_all ? scale(s, *mscale) / scale(s, *mscale_all) : scale(s, 1.0);
    if (!(v > 0 && v <= 100)) {
        h.o.value_error("rope_scaling", "gives a YaRN attention scale of " + format_printf("%.6g", v) + ": must be > 0 and at most 100");
        return;
    }
    m.rope_mscale = v;
    h.map("rope_scaling", "model.rope_mscale",
          format_printf("%.6g", v) + (v == 1.0     ? " (YaRN without an attention scale: fused RoPE)"
                                      : m.is_mla() ? " (multi-head latent attention prices its own RoPE pass)"
                                                   : " (YaRN's attention scale: Megatron-Core runs RoPE unfused)"));
}

int clamp_int(long long v) {
    return static_cast<int>(std::clamp<long long>(v, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
}

// Which layers are MoE, as COMET can say it: the first `dense_layers` dense, then the last of
// every run of `interval` layers MoE (ModelSpec).
struct MoeLayout {
    int dense_layers = 0;
    int interval = 1;
    int moe_layers = 0;
    bool exact = true;  // false: same number of MoE layers, other positions
};

// The layout of a config whose layer i is MoE when is_moe(i): exact when COMET can express it,
// otherwise with the same number of MoE layers and `interval` (or less, when that many MoE
// layers do not fit at that interval) moved to the end of the model. layers: 1..max_layers.
template <class IsMoe>
MoeLayout fit_moe_layout(int layers, int interval, IsMoe is_moe) {
    MoeLayout l;
    l.interval = interval;
    int first = -1;
    for (int i = 0; i < layers; ++i)
        if (is_moe(i)) {
            if (first < 0) first = i;
            ++l.moe_layers;
        }
    if (l.moe_layers == 0) {
        l.dense_layers = layers;
        return l;
    }
    if (const int d = first - interval + 1; d >= 0) {
        bool same = true;
        for (int i = 0; i < layers && same; ++i) same = is_moe(i) == (i >= d && (i - d + 1) % interval == 0);
        if (same) {
            l.dense_layers = d;
            return l;
        }
    }
    l.exact = false;
    l.interval = std::min(interval, layers / l.moe_layers);
    l.dense_layers = layers - l.moe_layers * l.interval;
    return l;
}

// Says which layers attend to the whole sequence (full[i] = 1) as COMET can: a window of
// `window` tokens in the others, every full_attention_interval-th layer full (the last of each
// run); other placements keep about as many full layers (warned). `window_key` names the key
// of the window, `source` the key that placed the full layers.
void place_full_layers(HfReader& h, ModelSpec& m, const std::vector<char>& full, long long window, const std::string& window_key,
                       const std::string& source) {
    const auto n_full = std::count(full.begin(), full.end(), 1);
    if (n_full == m.layers) {
        h.warn(source, "every layer attends to the whole sequence: " + window_key + " = " + std::to_string(window) + " unused");
        return;
    }
    int interval = 0;
    bool exact = n_full == 0;
    if (n_full > 0) {
        interval = static_cast<int>(std::find(full.begin(), full.end(), 1) - full.begin()) + 1;
        exact = true;
        for (int i = 0; i < m.layers && exact; ++i) exact = (full[static_cast<std::size_t>(i)] == 1) == ((i + 1) % interval == 0);
        if (!exact) interval = std::max(1, static_cast<int>(std::lround(static_cast<double>(m.layers) / static_cast<double>(n_full))));
    }
    m.sliding_window = static_cast<int>(window);
    m.full_attention_interval = interval;
    h.map(window_key, "model.sliding_window", std::to_string(m.sliding_window));
    h.map(
        source, "model.full_attention_interval",
        std::to_string(interval) + (interval == 0 ? " (every layer windowed)" : " (every " + std::to_string(interval) + "-th layer full)"));
    if (!exact)
        h.warn(source, std::to_string(n_full) + " of " + std::to_string(m.layers) +
                           " layers attend to the whole sequence at positions COMET cannot place: every " + std::to_string(interval) +
                           "-th layer full (model.full_attention_interval = " + std::to_string(interval) + "), about as many full layers");
}

// Sliding-window attention: `sliding_window` (null = none; Qwen's use_sliding_window = false
// turns it off) and which layers attend to the whole sequence: `layer_types` when given
// ("sliding_attention" / "full_attention" per layer, GPT-OSS), else Qwen's max_window_layers
// (the layers from that index on use the window), else every layer (Mistral). COMET says it as
// every `full_attention_interval`-th layer full (ModelSpec).
void import_sliding_window(HfReader& h, Arch arch, ModelSpec& m, bool layers_ok) {
    ObjectReader& o = h.o;
    JsonReader& r = o.reader();
    bool use_sliding = true;
    const bool has_use_sliding = h.get_bool("use_sliding_window", use_sliding);
    long long window = 0;
    const bool has_window = h.get_int("sliding_window", window, false);
    long long window_layers = 0;
    const bool qwen = arch == Arch::qwen2 || arch == Arch::qwen3 || arch == Arch::qwen2_moe || arch == Arch::qwen3_moe;
    const bool has_window_layers = h.get_int("max_window_layers", window_layers, false);
    std::vector<char> full;  // per layer, from layer_types
    if (h.present("layer_types") && layers_ok) {
        const json& list = *o.value("layer_types");
        const std::string allowed = "\"sliding_attention\" or \"full_attention\"";
        if (!list.is_array()) {
            o.error("layer_types", "expected an array of " + allowed + ", one per layer, got " + describe_json_value(list));
        } else if (list.size() != static_cast<std::size_t>(m.layers)) {
            o.error("layer_types", "has " + std::to_string(list.size()) +
                                       " entries, expected one per layer (num_hidden_layers = " + std::to_string(m.layers) + ")");
        } else {
            for (std::size_t i = 0; i < list.size() && r.ok(); ++i) {
                const json& v = list[i];
                const std::string key = "layer_types[" + std::to_string(i) + "]";
                if (v.is_string() && v.get<std::string>() == "full_attention")
                    full.push_back(1);
                else if (v.is_string() && v.get<std::string>() == "sliding_attention")
                    full.push_back(0);
                else
                    r.error(key, "expected " + allowed + ", got " + describe_json_value(v));
            }
        }
    }
    if (!r.ok() || !layers_ok) return;
    const bool windowed = has_window && (!has_use_sliding || use_sliding);
    if (!windowed) {
        if (std::find(full.begin(), full.end(), 0) != full.end())
            h.warn("layer_types", "sliding_attention layers without a sliding_window: full attention everywhere");
        return;
    }
    if (window < 1 || window > max_window) {
        o.value_error("sliding_window",
                      "= " + std::to_string(window) + ": must be null (no window) or an integer from 1 to " + std::to_string(max_window));
        return;
    }
    std::string source = "layer_types";
    if (full.empty()) {
        full.assign(static_cast<std::size_t>(m.layers), 0);
        if (qwen && has_window_layers) {
            if (window_layers < 0 || window_layers > m.layers) {
                o.value_error("max_window_layers", "= " + std::to_string(window_layers) + ": must be an integer from 0 to " +
                                                       std::to_string(m.layers) + " (num_hidden_layers)");
                return;
            }
            for (long long i = 0; i < window_layers; ++i) full[static_cast<std::size_t>(i)] = 1;
            source = "max_window_layers";
        } else {
            source = "sliding_window";
        }
    }
    place_full_layers(h, m, full, window, "sliding_window", source);
}

// Llama 4: chunked local attention (attention_chunk_size; absent or null = none) in the layers
// that use RoPE, global attention without positions (NoPE) in the others. Which layers: a
// `layer_types` list ("chunked_attention" / "full_attention", newer transformers), else
// no_rope_layers (1 = RoPE and chunked, 0 = NoPE and global, one per layer), else, when it is
// absent or [], transformers' default: every no_rope_layer_interval-th layer (4) global. COMET
// has no chunked attention: a chunk of c tokens becomes a sliding window of c (warned), which
// overstates the chunked layers' attention beyond c tokens (a query sees c / 2 keys of its chunk
// on average, c of a window) and equals it up to c.
void import_chunked_attention(HfReader& h, ModelSpec& m, bool layers_ok) {
    ObjectReader& o = h.o;
    JsonReader& r = o.reader();
    long long chunk = 0;
    const bool has_chunk = h.get_int("attention_chunk_size", chunk, false);
    long long every = 4;
    const bool has_every = h.get_int("no_rope_layer_interval", every, false);
    const bool has_types = h.present("layer_types");
    const bool has_rope_list = h.present("no_rope_layers");
    if (!r.ok() || !layers_ok) return;
    std::vector<char> full;  // per layer
    std::string source;
    const auto read_list = [&](std::string_view key, const std::string& allowed, auto entry) {
        const json& list = *o.value(key);
        if (!list.is_array()) {
            o.error(key, "expected an array of " + allowed + ", one per layer, got " + describe_json_value(list));
        } else if (!list.empty() && list.size() != static_cast<std::size_t>(m.layers)) {
            o.error(key, "has " + std::to_string(list.size()) +
                             " entries, expected one per layer (num_hidden_layers = " + std::to_string(m.layers) + ")");
        } else {
            for (std::size_t i = 0; i < list.size() && r.ok(); ++i) {
                const int f = entry(list[i]);
                if (f < 0)
                    r.error(h.path(std::string(key) + "[" + std::to_string(i) + "]"),
                            "expected " + allowed + ", got " + describe_json_value(list[i]));
                else
                    full.push_back(static_cast<char>(f));
            }
            source = key;
        }
    };
    if (has_types) {
        read_list("layer_types", "\"chunked_attention\" or \"full_attention\"", [](const json& v) {
            if (v.is_string() && v.get<std::string>() == "full_attention") return 1;
            if (v.is_string() && v.get<std::string>() == "chunked_attention") return 0;
            return -1;
        });
    }
    if (r.ok() && full.empty() && has_rope_list) {
        full.clear();
        read_list("no_rope_layers", "1 (RoPE, chunked attention) or 0 (NoPE, global attention)", [](const json& v) {
            if (v.is_number_integer() && (v.get<long long>() == 0 || v.get<long long>() == 1)) return v.get<long long>() == 0 ? 1 : 0;
            if (v.is_boolean()) return v.get<bool>() ? 0 : 1;
            return -1;
        });
    }
    if (!r.ok()) return;
    if (full.empty()) {  // transformers: layer i uses RoPE (chunked) when (i + 1) % no_rope_layer_interval != 0
        if (every < 1 || every > m.layers) {
            o.value_error("no_rope_layer_interval", "= " + std::to_string(every) + ": must be an integer from 1 to " +
                                                        std::to_string(m.layers) + " (num_hidden_layers)");
            return;
        }
        for (int i = 0; i < m.layers; ++i) full.push_back((i + 1) % every == 0 ? 1 : 0);
        source = has_every       ? "no_rope_layer_interval"
                 : has_rope_list ? "no_rope_layers"
                                 : "(every 4th layer global, transformers' default)";
    }
    if (!has_chunk) {
        if (std::find(full.begin(), full.end(), 0) != full.end())
            h.warn("attention_chunk_size", "missing or null: full attention in every layer");
        return;
    }
    if (chunk < 1 || chunk > max_window) {
        o.value_error("attention_chunk_size",
                      "= " + std::to_string(chunk) + ": must be null (no chunking) or an integer from 1 to " + std::to_string(max_window));
        return;
    }
    place_full_layers(h, m, full, chunk, "attention_chunk_size", source);
    if (m.sliding_window > 0)
        h.warn("attention_chunk_size",
               "= " + std::to_string(chunk) + ": chunked local attention approximated as a sliding window of " + std::to_string(chunk) +
                   " tokens (model.sliding_window): beyond " + std::to_string(chunk) +
                   " tokens the chunked layers' attention FLOPs and traffic are overstated (up to 2x: a query sees half a chunk on "
                   "average, a whole window), identical up to " +
                   std::to_string(chunk));
}

// The model family: the class in `architectures`, else the family in `model_type`; its name in
// arch_name. Nothing when neither names a supported family (the errors say why).
std::optional<Arch> read_architecture(HfReader& top, ObjectReader& top_o, std::string& arch_name) {
    // Architecture: the class in `architectures`, else the family in `model_type`.
    std::optional<Arch> arch;
    std::string model_type;
    std::optional<Arch> typed;
    if (top.get_string("model_type", model_type))
        for (const auto& n : model_types)
            if (n.name == model_type) typed = n.arch;
    top.used.emplace_back("architectures");
    const json* a = top_o.value("architectures");
    if (!a && typed) {
        arch = typed;
        arch_name = model_type;
        top.warn("architectures", "missing: the family is taken from model_type = " + quote_for_message(model_type));
    } else if (!a) {
        top_o.error("architectures", "missing (required)");
    } else if (!a->is_array() || a->empty() || !(*a)[0].is_string()) {
        top_o.error("architectures", "expected an array of architecture names, got " + describe_json_value(*a));
    } else {
        arch_name = (*a)[0].get<std::string>();
        for (const auto& n : arch_names)
            if (n.name == arch_name) arch = n.arch;
        if (!arch && typed) {
            arch = typed;
            top.warn("architectures", "= [" + quote_for_message(arch_name) +
                                          "] is not a supported class: read as model_type = " + quote_for_message(model_type));
        } else if (!arch) {
            std::string supported;
            for (const auto& n : arch_names)
                if (!n.name.empty()) supported += (supported.empty() ? "" : ", ") + std::string(n.name);
            top_o.value_error("architectures",
                              "= [" + quote_for_message(arch_name) + "]: unsupported architecture (supported: " + supported + ")");
        } else if (a->size() > 1) {
            top.warn("architectures", "several architectures listed: the first, " + arch_name + ", is used");
        }
    }
    return arch;
}

// The base scenario's model without what only some configs have (experts, latent attention, a
// window, scaled RoPE, a clamped activation): the import sets those only where the config has them.
ModelSpec without_variants(ModelSpec m) {
    // A dense model unless the config has experts, whatever the base scenario's model was.
    const ModelSpec dense{};
    m.experts = dense.experts;
    m.experts_per_token = dense.experts_per_token;
    m.expert_ffn_hidden = dense.expert_ffn_hidden;
    m.shared_experts = dense.shared_experts;
    m.dense_layers = dense.dense_layers;
    m.moe_layer_interval = dense.moe_layer_interval;
    m.capacity_factor = dense.capacity_factor;
    // Likewise ordinary full attention unless the config has latent attention or a window.
    m.q_lora_rank = dense.q_lora_rank;
    m.kv_lora_rank = dense.kv_lora_rank;
    m.qk_nope_head_dim = dense.qk_nope_head_dim;
    m.qk_rope_head_dim = dense.qk_rope_head_dim;
    m.v_head_dim = dense.v_head_dim;
    m.sliding_window = dense.sliding_window;
    m.full_attention_interval = dense.full_attention_interval;
    // Plain RoPE and an unclamped activation unless the config says otherwise.
    m.rope_mscale = dense.rope_mscale;
    m.glu_clamp = dense.glu_clamp;
    return m;
}

// What the parts of import_hf_config_text() share.
struct HfImport {
    JsonReader& r;
    ObjectReader& o;  // the object the model keys are read from (Llama 4: text_config)
    HfReader& h;      // its reader
    HfReader& top;    // the top level's (h itself without a text_config)
    ImportResult& res;
    Arch arch;
    bool nested;  // the model keys are in text_config
    ModelSpec m;
    bool layers_ok = false;  // layers known and sane: the MoE layers can be placed
    // v within [lo, hi], or an error on `key` of the model object naming what is `allowed`.
    bool in_range(std::string_view key, long long v, long long lo, long long hi, const std::string& allowed);
};

bool value_in_range(ObjectReader& o, std::string_view key, long long v, long long lo, long long hi, const std::string& allowed) {
    if (v >= lo && v <= hi) return true;
    o.value_error(key, "= " + std::to_string(v) + ": must be " + allowed);
    return false;
}

bool HfImport::in_range(std::string_view key, long long v, long long lo, long long hi, const std::string& allowed) {
    return value_in_range(o, key, v, lo, hi, allowed);
}

std::string integer_from(long long lo, long long hi) { return "an integer from " + std::to_string(lo) + " to " + std::to_string(hi); }

// Key/value heads (all heads without num_key_value_heads) and the head size.
void read_heads(HfImport& x) {
    ObjectReader& o = x.o;
    HfReader& h = x.h;
    ModelSpec& m = x.m;
    const Arch* arch = &x.arch;
    if (h.get_int("num_key_value_heads", m.kv_heads, false)) {
        h.map("num_key_value_heads", "model.kv_heads", std::to_string(m.kv_heads));
    } else {
        m.kv_heads = m.heads;
        h.map("num_attention_heads", "model.kv_heads", std::to_string(m.kv_heads) + " (no num_key_value_heads)");
    }
    if (h.get_int("head_dim", m.head_dim, false)) {
        h.map("head_dim", "model.head_dim", std::to_string(m.head_dim));
    } else if (m.heads > 0 && m.hidden > 0 && m.hidden % m.heads == 0) {
        m.head_dim = m.hidden / m.heads;
        h.map("hidden_size", "model.head_dim", std::to_string(m.head_dim) + " (hidden_size / num_attention_heads)");
    } else if (m.heads > 0 && m.hidden > 0 && *arch != Arch::deepseek) {  // MLA gives its own head sizes
        o.error("head_dim", "missing, and hidden_size = " + std::to_string(m.hidden) +
                                " is not a multiple of num_attention_heads = " + std::to_string(m.heads));
    }
}

void read_seq_len(HfImport& x) {
    ObjectReader& o = x.o;
    HfReader& h = x.h;
    ModelSpec& m = x.m;
    // Sequence length.
    long long max_pos = 0;
    if (h.get_int("max_position_embeddings", max_pos, false)) {
        if (max_pos >= 1 && max_pos <= hf_max_imported_seq_len) {
            m.seq_len = static_cast<int>(max_pos);
            h.map("max_position_embeddings", "model.seq_len", std::to_string(m.seq_len));
        } else if (max_pos > hf_max_imported_seq_len) {
            h.warn("max_position_embeddings", "= " + std::to_string(max_pos) + " is a long-context window (> " +
                                                  std::to_string(hf_max_imported_seq_len) +
                                                  "): model.seq_len kept from the base scenario (" + std::to_string(m.seq_len) + ")");
        } else {
            o.value_error("max_position_embeddings", "= " + std::to_string(max_pos) + ": must be >= 1");
        }
    } else {
        h.warn("max_position_embeddings", "missing: model.seq_len kept from the base scenario (" + std::to_string(m.seq_len) + ")");
    }
}

// Tied embeddings, positions, the activation and its clamp, biases, the MLP width.
void read_block_shape(HfImport& x, long long inter) {
    ObjectReader& o = x.o;
    HfReader& h = x.h;
    HfReader& top = x.top;
    ImportResult& res = x.res;
    ModelSpec& m = x.m;
    const Arch* arch = &x.arch;
    const bool text_o = x.nested;
    // Block shape.
    m.tied_embeddings = false;
    if (!h.get_bool("tie_word_embeddings", m.tied_embeddings) && text_o && top.get_bool("tie_word_embeddings", m.tied_embeddings))
        top.map("tie_word_embeddings", "model.tied_embeddings", m.tied_embeddings ? "true" : "false");
    else
        h.map("tie_word_embeddings", "model.tied_embeddings", m.tied_embeddings ? "true" : "false");
    m.learned_position_embeddings = false;
    res.mapped.push_back("(rotary positions) -> model.learned_position_embeddings = false");
    std::string act = "silu";
    h.get_string("hidden_act", act);
    m.gated_mlp = true;
    h.map("hidden_act", "model.gated_mlp", "true (" + quote_for_message(act) + " with gate/up/down projections)");
    if (act != "silu" && act != "swiglu")
        h.warn("hidden_act", "= " + quote_for_message(act) + ": the cost of the activation is not modelled (gated MLP assumed)");
    // GPT-OSS clamps its activation's inputs (swiglu_limit; ModelSpec::glu_clamp).
    if (double limit = 0; h.get_number("swiglu_limit", limit)) {
        if (limit > 0 && limit <= 1e6) {
            m.glu_clamp = limit;
            h.map("swiglu_limit", "model.glu_clamp", format_printf("%.6g", limit) + " (clamped outside the fused activation)");
        } else {
            o.value_error("swiglu_limit",
                          "= " + format_printf("%.6g", limit) + ": must be null (no clamp) or a number > 0 and at most 1e6");
        }
    }
    bool attn_bias = false, mlp_bias = false;
    const bool has_attn_bias = h.get_bool("attention_bias", attn_bias);
    const bool has_mlp_bias = h.get_bool("mlp_bias", mlp_bias);
    // GPT-OSS: its experts have biases exactly when its attention has (one attention_bias key).
    if (*arch == Arch::gpt_oss && !has_mlp_bias) mlp_bias = attn_bias;
    m.bias = attn_bias || mlp_bias;
    if (attn_bias != mlp_bias)
        h.warn(attn_bias ? "attention_bias" : "mlp_bias",
               "biases in only some linear layers: model.bias = true adds them to every linear layer and norm");
    if ((*arch == Arch::qwen2 || *arch == Arch::qwen2_moe) && !has_attn_bias) {
        m.bias = false;
        h.warn("architectures",
               "Qwen2 has biases on the q/k/v projections only: dropped (model.bias = false, "
               "a few hundred thousand parameters)");
    }
    h.map(has_attn_bias ? "attention_bias" : "architectures", "model.bias", m.bias ? "true" : "false");
    m.ffn_hidden = clamp_int(inter);
    if (*arch != Arch::llama4)  // Llama 4: intermediate_size is the experts' width (below)
        h.map("intermediate_size", "model.ffn_hidden", std::to_string(m.ffn_hidden));
}

// The layer indices a config lists under `key` (Qwen's mlp_only_layers, Llama 4's moe_layers), one
// flag per layer; empty when the key is absent or null or the layers are not known.
std::vector<char> read_layer_list(HfImport& x, std::string_view key) {
    std::vector<char> listed;
    if (!(x.h.present(key) && x.layers_ok)) return listed;
    listed.assign(static_cast<std::size_t>(x.m.layers), 0);
    const json& list = *x.o.value(key);
    const std::string allowed = "a layer index, " + integer_from(0, x.m.layers - 1L);
    if (!list.is_array()) {
        x.o.error(key, "expected an array of layer indices, got " + describe_json_value(list));
        return listed;
    }
    for (std::size_t i = 0; i < list.size() && x.r.ok(); ++i) {
        const json& v = list[i];
        const std::string at = x.h.path(std::string(key) + "[" + std::to_string(i) + "]");
        if (!v.is_number_integer()) {
            x.r.error(at, "expected " + allowed + ", got " + describe_json_value(v));
        } else if (const long long idx = v.get<long long>(); idx < 0 || idx >= x.m.layers) {
            x.r.error(at + " = " + std::to_string(idx), "must be " + allowed);
        } else {
            listed[static_cast<std::size_t>(idx)] = 1;
        }
    }
    return listed;
}

// Where each MoE field comes from: keys, or a parenthesised note when no key says it.
struct MoeKeys {
    std::string experts, active, width, shared, dense, interval;
    std::string layout;  // the key a warning about the layer placement names
};
// The experts as one family's keys give them.
struct MoeRead {
    MoeKeys keys;
    long long experts = 0, active = 0, width = 0, shared = 0;
    MoeLayout layout;
    std::string layout_note;  // how the config places its MoE layers, for the warning when inexact
};

// Mixtral and GPT-OSS: every layer MoE, no shared experts.
void read_moe_mixtral(HfImport& x, long long inter, MoeRead& mr) {
    mr.keys = {"num_local_experts", "num_experts_per_tok", "intermediate_size", "(no shared experts)",
               "(every layer MoE)", "(every layer MoE)",   "num_local_experts"};
    x.h.get_int("num_local_experts", mr.experts, true);
    x.h.get_int("num_experts_per_tok", mr.active, true);
    if (long long same = 0; x.h.get_int("experts_per_token", same, false) && x.r.ok() && same != mr.active)
        x.h.warn("experts_per_token", "= " + std::to_string(same) + " differs from num_experts_per_tok = " + std::to_string(mr.active) +
                                          ": num_experts_per_tok is used");
    mr.width = inter;
    if (x.r.ok() && x.layers_ok) mr.layout = fit_moe_layout(x.m.layers, 1, [](int) { return true; });
}

// Qwen2-MoE and Qwen3-MoE: decoder_sparse_step, mlp_only_layers, a shared expert of its own width.
void read_moe_qwen(HfImport& x, MoeRead& mr) {
    mr.keys = {"num_experts",         "num_experts_per_tok", "moe_intermediate_size", "(no shared_expert_intermediate_size)",
               "decoder_sparse_step", "decoder_sparse_step", "decoder_sparse_step"};
    long long shared_width = 0, step = 1;
    x.h.get_int("num_experts", mr.experts, true);
    x.h.get_int("num_experts_per_tok", mr.active, true);
    x.h.get_int("moe_intermediate_size", mr.width, true);
    const bool has_shared = x.h.get_int("shared_expert_intermediate_size", shared_width, false);
    x.h.get_int("decoder_sparse_step", step, false);
    // mlp_only_layers: indices of layers that keep the dense MLP.
    const std::vector<char> dense_only = read_layer_list(x, "mlp_only_layers");
    if (x.r.ok() && x.in_range("moe_intermediate_size", mr.width, 1, max_width, integer_from(1, max_width)) &&
        x.in_range("shared_expert_intermediate_size", shared_width, 0, max_width, integer_from(0, max_width))) {
        if (has_shared) mr.keys.shared = "shared_expert_intermediate_size / moe_intermediate_size";
        if (has_shared && shared_width > 0) {
            mr.shared = std::max(1LL, std::llround(static_cast<double>(shared_width) / static_cast<double>(mr.width)));
            if (mr.shared * mr.width != shared_width)
                x.h.warn("shared_expert_intermediate_size",
                         "= " + std::to_string(shared_width) + " is not a multiple of moe_intermediate_size = " + std::to_string(mr.width) +
                             ": model.shared_experts = " + std::to_string(mr.shared) + " (" + std::to_string(mr.shared * mr.width) +
                             " wide)");
        }
        if (x.layers_ok && x.in_range("decoder_sparse_step", step, 1, x.m.layers, integer_from(1, x.m.layers))) {
            // transformers: layer i is sparse when it is not in mlp_only_layers and (i + 1) % step == 0.
            mr.layout = fit_moe_layout(x.m.layers, static_cast<int>(step), [&](int i) {
                return (dense_only.empty() || !dense_only[static_cast<std::size_t>(i)]) && (i + 1) % step == 0;
            });
            mr.layout_note = "layer i is MoE when (i + 1) % decoder_sparse_step = 0 and i is not in mlp_only_layers";
            if (!dense_only.empty()) mr.keys.dense = mr.keys.layout = "mlp_only_layers";
        }
    }
}

void read_moe_llama4(HfImport& x, long long inter, MoeRead& mr) {
    // transformers' Llama4TextConfig: layer i is MoE when it is in moe_layers, by default
    // when (i + 1) % interleave_moe_layer_step = 0; an MoE layer has num_local_experts routed
    // experts and one shared expert, all intermediate_size wide, and a dense layer an MLP of
    // intermediate_size_mlp.
    mr.keys = {"num_local_experts",         "num_experts_per_tok",       "intermediate_size",        "(one shared expert, Llama 4)",
               "interleave_moe_layer_step", "interleave_moe_layer_step", "interleave_moe_layer_step"};
    long long step = 1, dense_width = 0;
    x.h.get_int("num_local_experts", mr.experts, true);
    x.h.get_int("num_experts_per_tok", mr.active, true);
    x.h.get_int("interleave_moe_layer_step", step, false);
    const bool has_dense_width = x.h.get_int("intermediate_size_mlp", dense_width, false);
    mr.width = inter;
    mr.shared = 1;
    const std::vector<char> listed = read_layer_list(x, "moe_layers");  // per layer
    if (x.r.ok() && x.layers_ok && x.in_range("interleave_moe_layer_step", step, 1, x.m.layers, integer_from(1, x.m.layers))) {
        if (!listed.empty()) {
            const auto first = std::find(listed.begin(), listed.end(), 1);
            const int guess = first == listed.end() ? 1 : static_cast<int>(first - listed.begin()) + 1;
            mr.layout = fit_moe_layout(x.m.layers, guess, [&](int i) { return listed[static_cast<std::size_t>(i)] == 1; });
            mr.layout_note = "layer i is MoE when it is listed in moe_layers";
            mr.keys.dense = mr.keys.interval = mr.keys.layout = "moe_layers";
        } else {
            mr.layout = fit_moe_layout(x.m.layers, static_cast<int>(step), [&](int i) { return (i + 1) % step == 0; });
            mr.layout_note = "layer i is MoE when (i + 1) % interleave_moe_layer_step = 0";
        }
    }
    if (x.r.ok() && x.layers_ok) {
        const bool has_dense = mr.layout.moe_layers < x.m.layers;
        if (has_dense_width) {
            if (x.in_range("intermediate_size_mlp", dense_width, 1, max_width, integer_from(1, max_width))) {
                x.m.ffn_hidden = static_cast<int>(dense_width);
                x.h.map("intermediate_size_mlp", "model.ffn_hidden",
                        std::to_string(x.m.ffn_hidden) + (has_dense ? "" : " (no dense layer: unused)"));
            }
        } else if (has_dense) {
            x.o.error("intermediate_size_mlp",
                      "missing (required: the MLP width of the " + std::to_string(x.m.layers - mr.layout.moe_layers) + " dense layers)");
        } else {
            x.h.map("intermediate_size", "model.ffn_hidden", std::to_string(x.m.ffn_hidden) + " (no dense layer: unused)");
        }
    }
}

// DeepSeek-V2/V3 and Kimi K2: first_k_dense_replace dense layers, then every moe_layer_freq-th.
void read_moe_deepseek(HfImport& x, MoeRead& mr) {
    mr.keys = {"n_routed_experts",      "num_experts_per_tok", "moe_intermediate_size", "n_shared_experts",
               "first_k_dense_replace", "moe_layer_freq",      "moe_layer_freq"};
    long long first_dense = 0, freq = 1;
    x.h.get_int("n_routed_experts", mr.experts, true);
    x.h.get_int("num_experts_per_tok", mr.active, true);
    x.h.get_int("moe_intermediate_size", mr.width, true);
    x.h.get_int("n_shared_experts", mr.shared, false);
    x.h.get_int("first_k_dense_replace", first_dense, false);
    x.h.get_int("moe_layer_freq", freq, false);
    if (x.r.ok() && x.in_range("moe_intermediate_size", mr.width, 1, max_width, integer_from(1, max_width)) &&
        x.in_range("n_shared_experts", mr.shared, 0, max_shared, integer_from(0, max_shared)) && x.layers_ok &&
        x.in_range("first_k_dense_replace", first_dense, 0, x.m.layers, integer_from(0, x.m.layers)) &&
        x.in_range("moe_layer_freq", freq, 1, x.m.layers, integer_from(1, x.m.layers))) {
        // transformers: layer i is MoE when i >= first_k_dense_replace and i % moe_layer_freq == 0.
        mr.layout = fit_moe_layout(x.m.layers, static_cast<int>(freq), [&](int i) { return i >= first_dense && i % freq == 0; });
        mr.layout_note = "layer i is MoE when i >= first_k_dense_replace and i % moe_layer_freq = 0";
        if (freq == 1) mr.keys.layout = "first_k_dense_replace";
    }
}

// Mixture of experts. Each family names its keys differently; the checks name the key.
void read_moe(HfImport& x, long long inter) {
    MoeRead mr;
    bool moe = true;
    if (x.arch == Arch::mixtral || x.arch == Arch::gpt_oss)
        read_moe_mixtral(x, inter, mr);
    else if (x.arch == Arch::qwen2_moe || x.arch == Arch::qwen3_moe)
        read_moe_qwen(x, mr);
    else if (x.arch == Arch::llama4)
        read_moe_llama4(x, inter, mr);
    else if (x.arch == Arch::deepseek)
        read_moe_deepseek(x, mr);
    else
        moe = false;
    if (moe && x.r.ok() && x.in_range(mr.keys.experts, mr.experts, 1, max_experts, integer_from(1, max_experts)) &&
        x.in_range(mr.keys.active, mr.active, 1, mr.experts, "from 1 to " + mr.keys.experts + " = " + std::to_string(mr.experts)) &&
        x.in_range(mr.keys.width, mr.width, 1, max_width, integer_from(1, max_width)) && x.layers_ok) {
        if (mr.layout.moe_layers == 0) {
            x.h.warn(mr.keys.layout, "no layer is a mixture-of-experts layer (" + mr.layout_note + "): imported as a dense model");
        } else {
            x.m.experts = static_cast<int>(mr.experts);
            x.m.experts_per_token = static_cast<int>(mr.active);
            x.m.expert_ffn_hidden = static_cast<int>(mr.width);
            x.m.shared_experts = static_cast<int>(mr.shared);
            x.m.dense_layers = mr.layout.dense_layers;
            x.m.moe_layer_interval = mr.layout.interval;
            x.m.capacity_factor = 1.0;
            x.h.map(mr.keys.experts, "model.experts", std::to_string(x.m.experts));
            x.h.map(mr.keys.active, "model.experts_per_token", std::to_string(x.m.experts_per_token));
            x.h.map(mr.keys.width, "model.expert_ffn_hidden", std::to_string(x.m.expert_ffn_hidden));
            x.h.map(mr.keys.shared, "model.shared_experts", std::to_string(x.m.shared_experts));
            x.h.map(mr.keys.dense, "model.dense_layers", std::to_string(x.m.dense_layers));
            x.h.map(mr.keys.interval, "model.moe_layer_interval", std::to_string(x.m.moe_layer_interval));
            x.res.mapped.push_back("(dropless routing) -> model.capacity_factor = 1");
            if (!mr.layout.exact)
                x.h.warn(mr.keys.layout,
                         "MoE layers at positions COMET cannot place (" + mr.layout_note + "): the " +
                             std::to_string(mr.layout.moe_layers) + " MoE layers of " + std::to_string(x.m.layers) +
                             " become model.dense_layers = " + std::to_string(x.m.dense_layers) + " dense layers, then " +
                             (x.m.moe_layer_interval == 1 ? std::string("every layer")
                                                          : "every " + std::to_string(x.m.moe_layer_interval) + "-th layer") +
                             " MoE (model.moe_layer_interval = " + std::to_string(x.m.moe_layer_interval) +
                             "); parameters and FLOPs are the same, pipeline stages may balance differently");
        }
    }
}

void read_latent_attention(HfImport& x) {
    JsonReader& r = x.r;
    ObjectReader& o = x.o;
    HfReader& h = x.h;
    ModelSpec& m = x.m;
    const Arch* arch = &x.arch;
    const auto in_range = [&x](std::string_view key, long long v, long long lo, long long hi, const std::string& allowed) {
        return value_in_range(x.o, key, v, lo, hi, allowed);
    };
    // Multi-head latent attention (DeepSeek-V2/V3, Kimi K2), imported as such.
    if (*arch == Arch::deepseek) {
        long long q_rank = 0, kv_rank = 0, nope = 0, rope = 0, v_dim = 0;
        const bool has_q_rank = h.get_int("q_lora_rank", q_rank, false);  // null: queries projected directly
        h.get_int("kv_lora_rank", kv_rank, true);
        h.get_int("qk_nope_head_dim", nope, true);
        h.get_int("qk_rope_head_dim", rope, true);
        h.get_int("v_head_dim", v_dim, true);
        if (r.ok() && in_range("kv_lora_rank", kv_rank, 1, max_lora_rank, integer_from(1, max_lora_rank)) &&
            (!has_q_rank || in_range("q_lora_rank", q_rank, 1, max_lora_rank, "null or " + integer_from(1, max_lora_rank))) &&
            in_range("qk_nope_head_dim", nope, 0, max_head_dim, integer_from(0, max_head_dim)) &&
            in_range("qk_rope_head_dim", rope, 0, max_head_dim, integer_from(0, max_head_dim)) &&
            in_range("v_head_dim", v_dim, 1, max_head_dim, integer_from(1, max_head_dim))) {
            if (nope + rope < 1) o.error("qk_rope_head_dim", "qk_nope_head_dim + qk_rope_head_dim must be >= 1");
        }
        if (r.ok()) {
            m.q_lora_rank = has_q_rank ? static_cast<int>(q_rank) : 0;
            m.kv_lora_rank = static_cast<int>(kv_rank);
            m.qk_nope_head_dim = static_cast<int>(nope);
            m.qk_rope_head_dim = static_cast<int>(rope);
            m.v_head_dim = static_cast<int>(v_dim);
            m.head_dim = static_cast<int>(nope + rope);  // unused with MLA; the query/key head size
            h.map("q_lora_rank", "model.q_lora_rank",
                  std::to_string(m.q_lora_rank) + (has_q_rank ? "" : " (null: queries projected directly)"));
            h.map("kv_lora_rank", "model.kv_lora_rank", std::to_string(m.kv_lora_rank));
            h.map("qk_nope_head_dim", "model.qk_nope_head_dim", std::to_string(m.qk_nope_head_dim));
            h.map("qk_rope_head_dim", "model.qk_rope_head_dim", std::to_string(m.qk_rope_head_dim));
            h.map("v_head_dim", "model.v_head_dim", std::to_string(m.v_head_dim));
            h.map("qk_nope_head_dim + qk_rope_head_dim", "model.head_dim",
                  std::to_string(m.head_dim) + " (query/key head size; unused with multi-head latent attention)");
        }
        long long mtp = 0;
        if (h.get_int("num_nextn_predict_layers", mtp, false) && in_range("num_nextn_predict_layers", mtp, 0, 16, integer_from(0, 16))) {
            m.mtp_layers = static_cast<int>(mtp);
            if (mtp > 0)
                h.map("num_nextn_predict_layers", "model.mtp_layers",
                      std::to_string(m.mtp_layers) + " (multi-token prediction modules on the last pipeline stage)");
        }
    }
}

// The keys nobody read, listed in a warning (up to about 600 characters), and every key of the
// objects allowed.
void warn_ignored_keys(const json& doc, bool nested, HfReader& h, HfReader& top, ObjectReader& top_o) {
    const bool text_o = nested;
    std::string ignored;
    const auto list_ignored = [&](const json& object, HfReader& hr) {
        for (const auto& [key, v] : object.items()) {
            (void)v;
            if (ignored.size() > 600) break;
            if (std::find(hr.used.begin(), hr.used.end(), key) != hr.used.end()) continue;
            hr.o.allow(key);
            ignored += (ignored.empty() ? "" : ", ") + quote_for_message(hr.path(key));
            if (ignored.size() > 600) ignored += ", ...";
        }
        hr.o.allow_all();
    };
    if (text_o) list_ignored(*top_o.value("text_config"), h);
    list_ignored(doc, top);
    if (!ignored.empty()) h.warn("", "keys with no COMET counterpart, ignored: " + ignored);
}

// RoPE scaling and stored quantization, then the sliding or chunked attention window.
void read_attention_variants(HfImport& x, Precision kept) {
    HfReader& h = x.h;
    HfReader& top = x.top;
    ModelSpec& m = x.m;
    // Keys with something to say, then the rest.
    // (Llama 4 keeps some of them at the top level, some in text_config.)
    // (Without a text_config, h is top itself: one pass.)
    std::vector<HfReader*> readers{&h};
    if (x.nested) readers.push_back(&top);
    for (HfReader* hr : readers) {
        import_rope_scaling(*hr, m);
        if (hr->present("quantization_config"))
            hr->warn("quantization_config", "stored weight quantization dropped: training.precision kept from the base scenario (" +
                                                std::string(to_string(kept)) + ")");
    }
    if (x.arch == Arch::llama4)
        import_chunked_attention(h, m, x.layers_ok);
    else
        import_sliding_window(h, x.arch, m, x.layers_ok);
}

// The scenario's name, the model's name and source, and the description.
void name_scenario(Scenario& s, std::string name, const std::string& label, const std::string& arch_name, const ModelSpec& m,
                   const std::string& base_name) {
    if (name.empty() || name.size() > 200) {
        const std::filesystem::path p(label);
        name = p.stem().string();
        if (name == "config" && !p.parent_path().filename().empty()) name = p.parent_path().filename().string();
    }
    const std::string size =
        m.is_moe() ? billions(total_parameters(m)) + ", " + billions(active_parameters(m)) + " active" : billions(total_parameters(m));
    s.model_info = {name + " (" + arch_name + ", " + size + ")", "Hugging Face config " + label};
    s.name = name + " on " + (s.node_info.name.empty() ? std::string("the base node") : s.node_info.name);
    s.description = "Model imported from the Hugging Face config " + label + " (" + arch_name +
                    "); node, cluster, training and strategy from the base scenario \"" + base_name + "\".";
}

}  // namespace

Loaded<ImportResult> import_hf_config_text(std::string_view text, std::string_view label_view, const Scenario& base) {
    Loaded<ImportResult> out;
    const std::string label(label_view);
    try {
        JsonReader r{label};
        const auto doc = r.parse(text);
        if (!doc) {
            out.errors = r.take_errors();
            return out;
        }
        if (!doc->is_object()) {
            r.error("", "expected a JSON object at the top level, got " + describe_json_value(*doc));
            out.errors = r.take_errors();
            return out;
        }
        ImportResult res;
        res.scenario = base;
        ObjectReader top_o(r, *doc, "");
        HfReader top{top_o, res, label};

        // Architecture: the class in `architectures`, else the family in `model_type`.
        std::string arch_name;
        const std::optional<Arch> arch = read_architecture(top, top_o, arch_name);
        if (!arch) {
            out.errors = r.take_errors();
            return out;
        }

        // Llama 4's multimodal config nests the text model under text_config: the model keys are
        // read there (the names, and tie_word_embeddings when the text model lacks it, at the top).
        std::optional<ObjectReader> text_o;
        if (*arch == Arch::llama4) {
            if (top.present("text_config")) {
                const json& tc = *top_o.value("text_config");
                if (!tc.is_object())
                    top_o.error("text_config", "expected an object (the text model of Llama 4), got " + describe_json_value(tc));
                else
                    text_o.emplace(r, tc, "text_config");
            } else if (arch_name == "Llama4ForConditionalGeneration" || arch_name == "llama4") {
                top_o.error("text_config", "missing (required: a multimodal Llama 4 config holds its text model there)");
            }
            if (!r.ok()) {
                out.errors = r.take_errors();
                return out;
            }
        }
        ObjectReader& o = text_o ? *text_o : top_o;
        HfReader text_h{o, res, label};
        HfReader& h = text_o ? text_h : top;
        if (text_o) h.present("model_type");  // "llama4_text"

        HfImport x{r, o, h, top, res, *arch, text_o.has_value(), without_variants(base.config.model)};
        ModelSpec& m = x.m;
        if (h.get_int("num_hidden_layers", m.layers, true)) h.map("num_hidden_layers", "model.layers", std::to_string(m.layers));
        if (h.get_int("hidden_size", m.hidden, true)) h.map("hidden_size", "model.hidden", std::to_string(m.hidden));
        if (h.get_int("num_attention_heads", m.heads, true)) h.map("num_attention_heads", "model.heads", std::to_string(m.heads));
        long long inter = 0;
        h.get_int("intermediate_size", inter, true);
        if (h.get_int("vocab_size", m.vocab, true)) h.map("vocab_size", "model.vocab", std::to_string(m.vocab));
        if (!r.ok()) {
            out.errors = r.take_errors();
            return out;
        }

        read_heads(x);

        read_seq_len(x);

        read_block_shape(x, inter);

        // Layers need to be known (and sane) to place the MoE layers; check_config names them otherwise.
        x.layers_ok = m.layers >= 1 && m.layers <= max_layers;
        read_moe(x, inter);

        read_latent_attention(x);

        read_attention_variants(x, base.config.training.precision);
        if (text_o && top.present("vision_config"))
            top.warn("vision_config", "the vision encoder and its projector are not modelled: the text model only");
        std::string name;
        top.get_string("_name_or_path", name);
        if (text_o) {
            std::string inner;
            h.get_string("_name_or_path", inner);
            if (name.empty()) name = inner;
        }
        warn_ignored_keys(*doc, text_o.has_value(), h, top, top_o);
        if (!r.ok()) {
            out.errors = r.take_errors();
            return out;
        }

        Config& c = res.scenario.config;
        c.model = m;
        for (const FieldError& e : check_config(c)) {
            const auto it = h.origin.find(e.path);
            out.errors.push_back(it != h.origin.end() ? it->second + " -> " + e.message() : label + ": " + e.message());
        }
        if (!out.errors.empty()) return out;
        if (m.heads % c.strategy.tp != 0 || m.kv_heads % c.strategy.tp != 0)
            h.warn("", "strategy.tp = " + std::to_string(c.strategy.tp) + " (from the base scenario) does not divide the " +
                           "attention heads (" + std::to_string(m.heads) + ", kv " + std::to_string(m.kv_heads) +
                           "): choose a strategy, e.g. with 'comet-cli search'");

        name_scenario(res.scenario, name, label, arch_name, m, base.name);
        out.value = std::move(res);
    } catch (const std::exception& e) {  // allocation failure on hostile input
        out.errors.push_back(label + ": import failed: " + e.what());
        out.value.reset();
    }
    return out;
}

Loaded<ImportResult> import_hf_config(const std::filesystem::path& config_json, const Scenario& base) {
    std::string text;
    if (const std::string problem = read_json_file(config_json, text); !problem.empty()) {
        Loaded<ImportResult> out;
        out.errors.push_back(config_json.string() + ": " + problem);
        return out;
    }
    return import_hf_config_text(text, config_json.string(), base);
}

}  // namespace comet
