// Hugging Face transformers config.json -> ModelSpec (docs/interop.md has the mapping table).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <exception>
#include <limits>
#include <map>
#include <string>
#include <utility>

#include "comet/check.hpp"
#include "comet/interop.hpp"
#include "comet/workload.hpp"
#include "json_reader.hpp"

namespace comet {

namespace {

using nlohmann::json;


enum class Arch { llama, mistral, qwen2, mixtral, deepseek };

struct ArchName {
    std::string_view name;
    Arch arch;
};

constexpr std::array<ArchName, 6> arch_names{{{"LlamaForCausalLM", Arch::llama},
                                              {"MistralForCausalLM", Arch::mistral},
                                              {"Qwen2ForCausalLM", Arch::qwen2},
                                              {"MixtralForCausalLM", Arch::mixtral},
                                              {"DeepseekV2ForCausalLM", Arch::deepseek},
                                              {"DeepseekV3ForCausalLM", Arch::deepseek}}};

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

    void map(std::string_view key, const std::string& to, const std::string& value) {
        res.mapped.push_back(std::string(key) + " -> " + to + " = " + value);
        origin[to] = label + ": " + std::string(key);
    }
    void warn(std::string_view key, const std::string& text) {
        std::string line = label + ": ";
        if (!key.empty()) line += std::string(key) + (text.starts_with("= ") ? " " : ": ");
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
    bool get_string(std::string_view key, std::string& out) { return present(key) && o.optional_string(key, out); }
};

int clamp_int(long long v) {
    return static_cast<int>(std::clamp<long long>(v, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
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
        ObjectReader o(r, *doc, "");
        HfReader h{o, res, label};

        // Architecture.
        std::optional<Arch> arch;
        std::string arch_name;
        h.used.emplace_back("architectures");
        const json* a = o.value("architectures");
        if (!a) {
            o.error("architectures", "missing (required)");
        } else if (!a->is_array() || a->empty() || !(*a)[0].is_string()) {
            o.error("architectures", "expected an array of architecture names, got " + describe_json_value(*a));
        } else {
            arch_name = (*a)[0].get<std::string>();
            for (const auto& n : arch_names)
                if (n.name == arch_name) arch = n.arch;
            if (!arch) {
                std::string supported;
                for (const auto& n : arch_names)
                    if (!n.name.empty()) supported += (supported.empty() ? "" : ", ") + std::string(n.name);
                o.value_error("architectures", "= [" + quote_for_message(arch_name) + "]: unsupported architecture (supported: " +
                                             supported + ")");
            } else if (a->size() > 1) {
                h.warn("architectures", "several architectures listed: the first, " + arch_name + ", is used");
            }
        }
        if (!arch) {
            out.errors = r.take_errors();
            return out;
        }

        ModelSpec m = base.config.model;
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
        } else if (m.heads > 0 && m.hidden > 0) {
            o.error("head_dim", "missing, and hidden_size = " + std::to_string(m.hidden) +
                                    " is not a multiple of num_attention_heads = " + std::to_string(m.heads));
        }

        // Sequence length.
        long long max_pos = 0;
        if (h.get_int("max_position_embeddings", max_pos, false)) {
            if (max_pos >= 1 && max_pos <= hf_max_imported_seq_len) {
                m.seq_len = static_cast<int>(max_pos);
                h.map("max_position_embeddings", "model.seq_len", std::to_string(m.seq_len));
            } else if (max_pos > hf_max_imported_seq_len) {
                h.warn("max_position_embeddings", "= " + std::to_string(max_pos) + " is a long-context window (> " +
                                                      std::to_string(hf_max_imported_seq_len) +
                                                      "): model.seq_len kept from the base scenario (" +
                                                      std::to_string(m.seq_len) + ")");
            } else {
                o.value_error("max_position_embeddings", "= " + std::to_string(max_pos) + ": must be >= 1");
            }
        } else {
            h.warn("max_position_embeddings", "missing: model.seq_len kept from the base scenario (" +
                                                  std::to_string(m.seq_len) + ")");
        }

        // Block shape.
        m.tied_embeddings = false;
        h.get_bool("tie_word_embeddings", m.tied_embeddings);
        h.map("tie_word_embeddings", "model.tied_embeddings", m.tied_embeddings ? "true" : "false");
        m.learned_position_embeddings = false;
        res.mapped.push_back("(rotary positions) -> model.learned_position_embeddings = false");
        std::string act = "silu";
        h.get_string("hidden_act", act);
        m.gated_mlp = true;
        h.map("hidden_act", "model.gated_mlp", "true (" + quote_for_message(act) + " with gate/up/down projections)");
        if (act != "silu" && act != "swiglu")
            h.warn("hidden_act", "= " + quote_for_message(act) + ": the cost of the activation is not modelled (gated MLP assumed)");
        bool attn_bias = false, mlp_bias = false;
        const bool has_attn_bias = h.get_bool("attention_bias", attn_bias);
        h.get_bool("mlp_bias", mlp_bias);
        m.bias = attn_bias || mlp_bias;
        if (attn_bias != mlp_bias)
            h.warn(attn_bias ? "attention_bias" : "mlp_bias",
                   "biases in only some linear layers: model.bias = true adds them to every linear layer and norm");
        if (*arch == Arch::qwen2 && !has_attn_bias) {
            m.bias = false;
            h.warn("architectures", "Qwen2 has biases on the q/k/v projections only: dropped (model.bias = false, "
                                    "a few hundred thousand parameters)");
        }
        h.map(has_attn_bias ? "attention_bias" : "architectures", "model.bias", m.bias ? "true" : "false");
        m.ffn_hidden = clamp_int(inter);
        const auto dense_ffn = [&](std::string_view key) {
            h.map(key, "model.ffn_hidden", std::to_string(m.ffn_hidden));
        };

        // Mixture of experts: dense equivalent of the active parameters.
        if (*arch == Arch::mixtral) {
            long long experts = 0, active = 0;
            h.get_int("num_local_experts", experts, true);
            h.get_int("num_experts_per_tok", active, true);
            if (r.ok() && (experts < 1 || active < 1 || active > experts))
                o.value_error("num_experts_per_tok", "= " + std::to_string(active) + ": must be from 1 to num_local_experts = " +
                                                   std::to_string(experts));
            if (r.ok()) {
                m.ffn_hidden = clamp_int(inter * active);
                h.map("intermediate_size * num_experts_per_tok", "model.ffn_hidden", std::to_string(m.ffn_hidden));
                const double expert = 3.0 * m.hidden * static_cast<double>(inter) * m.layers;
                const double total = total_parameters(m) + static_cast<double>(experts - active) * expert;
                h.warn("num_local_experts",
                       "mixture of experts is not modelled yet: imported as the dense equivalent of the active "
                       "parameters (" + std::to_string(active) + " of " + std::to_string(experts) +
                           " experts, model.ffn_hidden = intermediate_size * num_experts_per_tok = " +
                           std::to_string(m.ffn_hidden) + "): " + billions(total_parameters(m)) + " of " +
                           billions(total) +
                           " parameters; weight, gradient and optimizer memory and expert-parallel traffic are underestimated");
            }
        } else if (*arch == Arch::deepseek) {
            long long routed = 0, active = 0, moe_inter = 0, shared = 0, dense_layers = 0, freq = 1;
            long long q_rank = 0, kv_rank = 0, nope = 0, rope = 0, v_dim = 0;
            h.get_int("n_routed_experts", routed, true);
            h.get_int("num_experts_per_tok", active, true);
            h.get_int("moe_intermediate_size", moe_inter, true);
            h.get_int("n_shared_experts", shared, false);
            h.get_int("first_k_dense_replace", dense_layers, false);
            h.get_int("moe_layer_freq", freq, false);
            const bool has_q_rank = h.get_int("q_lora_rank", q_rank, false);
            h.get_int("kv_lora_rank", kv_rank, true);
            h.get_int("qk_nope_head_dim", nope, true);
            h.get_int("qk_rope_head_dim", rope, true);
            h.get_int("v_head_dim", v_dim, true);
            const auto positive = [&](std::string_view key, long long v, long long min) {
                if (v < min) o.value_error(key, "= " + std::to_string(v) + ": must be >= " + std::to_string(min));
            };
            if (r.ok()) {
                positive("n_routed_experts", routed, 1);
                positive("num_experts_per_tok", active, 1);
                positive("moe_intermediate_size", moe_inter, 1);
                positive("n_shared_experts", shared, 0);
                positive("first_k_dense_replace", dense_layers, 0);
                positive("kv_lora_rank", kv_rank, 1);
                positive("qk_nope_head_dim", nope, 0);
                positive("qk_rope_head_dim", rope, 0);
                positive("v_head_dim", v_dim, 1);
                if (has_q_rank) positive("q_lora_rank", q_rank, 1);
                if (active > routed) positive("n_routed_experts", routed, active);
                if (nope + rope < 1) o.error("qk_rope_head_dim", "qk_nope_head_dim + qk_rope_head_dim must be >= 1");
                if (m.layers < 1 || m.hidden < 1 || m.heads < 1) o.error("num_hidden_layers", "layers, hidden_size and heads must be >= 1");
            }
            if (r.ok()) {
                const long long layers = m.layers;
                const long long dense = std::min(dense_layers, layers);
                if (freq != 1)
                    h.warn("moe_layer_freq", "= " + std::to_string(freq) + ": every layer after first_k_dense_replace is taken as MoE");
                const double moe_width = static_cast<double>(active + shared) * static_cast<double>(moe_inter);
                const double avg = (static_cast<double>(dense) * static_cast<double>(inter) +
                                    static_cast<double>(layers - dense) * moe_width) / static_cast<double>(layers);
                m.ffn_hidden = clamp_int(std::llround(std::min(avg, 1e15)));
                h.map("intermediate_size, moe_intermediate_size, num_experts_per_tok, n_shared_experts, first_k_dense_replace",
                      "model.ffn_hidden", std::to_string(m.ffn_hidden));
                // MLA: keep heads, choose head_dim so that the attention has MLA's parameters.
                const double H = m.heads, hid = m.hidden;
                const double qk = static_cast<double>(nope + rope);
                const double q = has_q_rank ? hid * static_cast<double>(q_rank) + static_cast<double>(q_rank) * H * qk : hid * H * qk;
                const double kv = hid * static_cast<double>(kv_rank + rope) + static_cast<double>(kv_rank) * H * static_cast<double>(nope + v_dim);
                const double o_proj = H * static_cast<double>(v_dim) * hid;
                const double mla = q + kv + o_proj;
                m.kv_heads = m.heads;
                m.head_dim = clamp_int(std::max(1LL, std::llround(std::min(mla / (4.0 * hid * H), 1e15))));
                h.map("q_lora_rank, kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim, v_head_dim", "model.head_dim",
                      std::to_string(m.head_dim) + " (multi-head attention with MLA's parameter count)");
                h.origin["model.kv_heads"] = label + ": num_attention_heads";
                h.warn("kv_lora_rank",
                       "multi-head latent attention (MLA) is approximated by multi-head attention with "
                       "model.kv_heads = model.heads and model.head_dim = " + std::to_string(m.head_dim) +
                           ", which has MLA's " + billions(mla * static_cast<double>(layers)) +
                           " attention parameters; attention-score FLOPs use head_dim " + std::to_string(m.head_dim) +
                           " instead of " + std::to_string(nope + rope) + " (q.k) and " + std::to_string(v_dim) +
                           " (v), and the low-rank KV cache is not modelled");
                const double expert = 3.0 * hid * static_cast<double>(moe_inter) * static_cast<double>(layers - dense);
                const double total = total_parameters(m) + static_cast<double>(routed - active) * expert;
                h.warn("n_routed_experts",
                       "mixture of experts is not modelled yet: imported as the dense equivalent of the active "
                       "parameters (" + std::to_string(active) + " of " + std::to_string(routed) + " routed experts + " +
                           std::to_string(shared) + " shared, first " + std::to_string(dense) +
                           " layers dense, model.ffn_hidden = " + std::to_string(m.ffn_hidden) +
                           " averaged over the layers): " + billions(total_parameters(m)) + " of about " +
                           billions(total) +
                           " parameters; weight, gradient and optimizer memory and expert-parallel traffic are underestimated");
            }
            long long mtp = 0;
            if (h.get_int("num_nextn_predict_layers", mtp, false) && mtp > 0)
                h.warn("num_nextn_predict_layers", "= " + std::to_string(mtp) + ": multi-token prediction modules dropped");
        } else {
            dense_ffn("intermediate_size");
        }

        // Keys with something to say, then the rest.
        if (h.present("rope_scaling")) h.warn("rope_scaling", "RoPE scaling costs nothing in COMET: dropped");
        bool use_sliding = true;
        const bool has_use_sliding = h.get_bool("use_sliding_window", use_sliding);
        if (h.present("sliding_window") && (!has_use_sliding || use_sliding))
            h.warn("sliding_window", "sliding-window attention is not modelled: full causal attention over model.seq_len");
        if (h.present("quantization_config"))
            h.warn("quantization_config", "stored weight quantization dropped: training.precision kept from the base scenario (" +
                                              std::string(to_string(base.config.training.precision)) + ")");
        std::string name;
        h.get_string("_name_or_path", name);
        std::string ignored;
        for (const auto& [key, v] : doc->items()) {
            (void)v;
            if (std::find(h.used.begin(), h.used.end(), key) != h.used.end()) continue;
            o.allow(key);
            ignored += (ignored.empty() ? "" : ", ") + quote_for_message(key);
            if (ignored.size() > 600) {
                ignored += ", ...";
                break;
            }
        }
        o.allow_all();
        if (!ignored.empty()) h.warn("", "keys with no COMET counterpart, ignored: " + ignored);
        if (!r.ok()) {
            out.errors = r.take_errors();
            return out;
        }

        Config& c = res.scenario.config;
        c.model = m;
        for (const FieldError& e : check_config(c)) {
            const auto it = h.origin.find(e.path);
            out.errors.push_back(it != h.origin.end() ? it->second + " -> " + e.message()
                                                      : label + ": " + e.message());
        }
        if (!out.errors.empty()) return out;
        if (m.heads % c.strategy.tp != 0 || m.kv_heads % c.strategy.tp != 0)
            h.warn("", "strategy.tp = " + std::to_string(c.strategy.tp) + " (from the base scenario) does not divide the " +
                           "attention heads (" + std::to_string(m.heads) + ", kv " + std::to_string(m.kv_heads) +
                           "): choose a strategy, e.g. with 'comet-cli search'");

        Scenario& s = res.scenario;
        if (name.empty() || name.size() > 200) {
            const std::filesystem::path p(label);
            name = p.stem().string();
            if (name == "config" && !p.parent_path().filename().empty()) name = p.parent_path().filename().string();
        }
        s.model_info = {name + " (" + arch_name + ", " + billions(total_parameters(m)) + ")",
                        "Hugging Face config " + label};
        s.name = name + " on " + (s.node_info.name.empty() ? std::string("the base node") : s.node_info.name);
        s.description = "Model imported from the Hugging Face config " + label + " (" + arch_name +
                        "); node, cluster, training and strategy from the base scenario \"" + base.name + "\".";
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
