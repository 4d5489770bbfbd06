#include "comet/validation.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "comet/check.hpp"
#include "comet/fields.hpp"
#include "comet/evaluate.hpp"
#include "comet/pipeline.hpp"
#include "comet/report.hpp"
#include "formats/scenario_sections.hpp"
#include "model/stages.hpp"

namespace comet {
namespace {

using nlohmann::json;

// Reads one case; throws std::runtime_error with the key path on malformed input (caught by
// load_measurements, so nothing escapes to the caller).
int get_int(const json& j, const char* key, const std::string& where, int min = 1) {
    const auto it = j.find(key);
    if (it == j.end()) throw std::runtime_error(where + "." + key + ": missing (required)");
    if (!it->is_number_integer() || it->get<long long>() < min || it->get<long long>() > std::numeric_limits<int>::max())
        throw std::runtime_error(where + "." + key + ": expected an integer >= " + std::to_string(min) + ", got " + it->dump());
    return static_cast<int>(it->get<long long>());
}

int opt_int(const json& j, const char* key, const std::string& where, int fallback, int min = 1) {
    return j.contains(key) ? get_int(j, key, where, min) : fallback;
}

bool opt_bool(const json& j, const char* key, const std::string& where, bool fallback) {
    const auto it = j.find(key);
    if (it == j.end()) return fallback;
    if (!it->is_boolean()) throw std::runtime_error(where + "." + key + ": expected true or false, got " + it->dump());
    return it->get<bool>();
}

std::string opt_string(const json& j, const char* key, const std::string& where, const std::string& fallback) {
    const auto it = j.find(key);
    if (it == j.end()) return fallback;
    if (!it->is_string()) throw std::runtime_error(where + "." + key + ": expected a string, got " + it->dump());
    return it->get<std::string>();
}

double get_positive(const json& j, const char* key, const std::string& where) {
    const auto it = j.find(key);
    if (it == j.end()) throw std::runtime_error(where + "." + key + ": missing (required)");
    if (!it->is_number() || !(it->get<double>() > 0) || !std::isfinite(it->get<double>()))
        throw std::runtime_error(where + "." + key + ": expected a positive number, got " + it->dump());
    return it->get<double>();
}

// A row whose table names no software runs on the stack its form is read as (validation.hpp).
void assume_software(MeasuredCase& mc, const char* id) {
    if (!mc.software.empty()) return;
    mc.software = id;
    mc.software_assumed = true;
}

// Levenshtein distance, for "did you mean".
std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

// Refuses a key of `j` that is not in `allowed`: a misspelt or unsupported setting would
// otherwise be ignored and the row priced at the default ("zero": 3 run at ZeRO-1).
void refuse_unknown_keys(const json& j, std::initializer_list<std::string_view> allowed, const std::string& where) {
    for (const auto& item : j.items()) {
        const std::string& key = item.key();
        if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
        std::string_view best;
        std::size_t best_d = 3;
        // Names other tools use for a key this reader spells otherwise.
        static constexpr std::pair<std::string_view, std::string_view> synonyms[] = {
            {"zero", "fsdp"},           {"zero_stage", "fsdp"}, {"interleave", "vp"},
            {"virtual_pipeline", "vp"}, {"mbs", "microbatch"},  {"micro_batch_size", "microbatch"},
            {"sp", "sequence_parallel"}};
        for (const auto& [other, ours] : synonyms)
            if (key == other && std::find(allowed.begin(), allowed.end(), ours) != allowed.end()) {
                best = ours;
                best_d = 0;
            }
        for (std::string_view a : allowed) {
            const std::size_t d = edit_distance(key, a);
            const bool prefix = key.size() >= 2 && (a.starts_with(key) || std::string_view(key).starts_with(a));
            if (best_d > 0 && (d < best_d || (prefix && best.empty()))) {
                best = a;
                best_d = std::min(d, best_d);
            }
        }
        std::string message = where;
        message.append(".").append(key).append(": unknown key");
        if (!best.empty()) message.append(" (did you mean \"").append(best).append("\"?)");
        message.append("; allowed: ");
        bool first = true;
        for (std::string_view a : allowed) {
            if (!first) message.append(", ");
            message.append(a);
            first = false;
        }
        throw std::runtime_error(message);
    }
}

std::string lower(std::string s) {
    for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s;
}

// Letters and digits only, lower case: "Llama 3.1 405B" and "llama3.1-405b" match.
std::string folded(const std::string& s) {
    std::string out;
    for (const char ch : s)
        if (std::isalnum(static_cast<unsigned char>(ch))) out += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return out;
}

Precision parse_precision(const std::string& text, const std::string& where) {
    const std::string p = lower(text);
    if (p.rfind("fp8-mx", 0) == 0 || p.rfind("mxfp8", 0) == 0) return Precision::mxfp8;
    if (p.rfind("fp8", 0) == 0) return Precision::fp8;
    if (p.rfind("nvfp4", 0) == 0 || p.rfind("mxfp4", 0) == 0 || p.rfind("fp4", 0) == 0) return Precision::fp4;
    if (p.rfind("bf16", 0) == 0) return Precision::bf16;
    if (p.rfind("fp16", 0) == 0) return Precision::fp16;
    throw std::runtime_error(where + ".precision = \"" + text + "\": must start with fp16, bf16, fp8, FP8-MX or NVFP4");
}

// A row's enumeration, by the scenario format's names for it.
template <class E, std::size_t N>
E parse_named(const std::array<EnumName<E>, N>& names, const std::string& text, const std::string& where, std::string_view key) {
    std::string allowed;
    for (const auto& n : names) {
        if (n.name == text) return n.value;
        allowed += (allowed.empty() ? "" : ", ") + std::string(n.name);
    }
    throw std::runtime_error(where + "." + std::string(key) + " = \"" + text + "\": must be one of " + allowed);
}

Recompute parse_recompute(const std::string& rc, const std::string& where) {
    return parse_named(sections::recompute_names, rc, where, "recompute");
}

// The model: the preset named by model_name (if any), then the case's own fields.
void read_model(const json& jc, const std::string& where, const std::vector<ModelPreset>& models, ModelSpec& m) {
    const auto mit = jc.find("model");
    if (mit == jc.end() || !mit->is_object()) throw std::runtime_error(where + ".model: missing or not an object");
    const std::string mw = where + ".model";
    const std::string name = opt_string(jc, "model_name", where, "");
    const ModelPreset* preset = nullptr;
    for (const auto& p : models)
        if (!name.empty() && (folded(p.id) == folded(name) || folded(p.info.name) == folded(name))) preset = &p;
    const json& jm = *mit;
    if (preset) {
        m = preset->model;
    } else {
        // No preset: a gated (SwiGLU) MLP marks a Llama-style model (RoPE, no biases, untied
        // embeddings); otherwise GPT-style, as in Megatron-LM's 2021 runs.
        const bool llama = jm.value("gated_mlp", false) == true;
        m = ModelSpec{};
        m.bias = !llama;
        m.learned_position_embeddings = !llama;
        m.tied_embeddings = !llama;
    }
    m.layers = opt_int(jm, "layers", mw, preset ? m.layers : get_int(jm, "layers", mw));
    m.hidden = opt_int(jm, "hidden", mw, preset ? m.hidden : get_int(jm, "hidden", mw));
    m.heads = opt_int(jm, "heads", mw, preset ? m.heads : get_int(jm, "heads", mw));
    m.kv_heads = opt_int(jm, "kv_heads", mw, preset ? m.kv_heads : m.heads);
    m.head_dim = opt_int(jm, "head_dim", mw, preset ? m.head_dim : std::max(1, m.hidden / m.heads));
    m.ffn_hidden = opt_int(jm, "ffn_hidden", mw, preset ? m.ffn_hidden : get_int(jm, "ffn_hidden", mw));
    m.seq_len = opt_int(jm, "seq_len", mw, preset ? m.seq_len : get_int(jm, "seq_len", mw));
    m.vocab = opt_int(jm, "vocab", mw, preset ? m.vocab : get_int(jm, "vocab", mw));
    m.gated_mlp = opt_bool(jm, "gated_mlp", mw, m.gated_mlp);
    m.bias = opt_bool(jm, "bias", mw, m.bias);
    m.learned_position_embeddings = opt_bool(jm, "learned_position_embeddings", mw, m.learned_position_embeddings);
    m.tied_embeddings = opt_bool(jm, "tied_embeddings", mw, m.tied_embeddings);
    m.experts = opt_int(jm, "experts", mw, m.experts, 0);
    if (m.experts > 0) {
        m.experts_per_token = opt_int(jm, "experts_per_token", mw, m.experts_per_token);
        m.expert_ffn_hidden = opt_int(jm, "expert_ffn_hidden", mw, m.expert_ffn_hidden);
        m.shared_experts = opt_int(jm, "shared_experts", mw, m.shared_experts, 0);
        m.dense_layers = opt_int(jm, "dense_layers", mw, m.dense_layers, 0);
        m.moe_layer_interval = opt_int(jm, "moe_layer_interval", mw, m.moe_layer_interval);
        m.capacity_factor = 1.0;  // published MoE runs here are dropless and force-balanced
    }
    m.q_lora_rank = opt_int(jm, "q_lora_rank", mw, m.q_lora_rank, 0);
    m.kv_lora_rank = opt_int(jm, "kv_lora_rank", mw, m.kv_lora_rank, 0);
    m.qk_nope_head_dim = opt_int(jm, "qk_nope_head_dim", mw, m.qk_nope_head_dim, 0);
    m.qk_rope_head_dim = opt_int(jm, "qk_rope_head_dim", mw, m.qk_rope_head_dim, 0);
    m.v_head_dim = opt_int(jm, "v_head_dim", mw, m.v_head_dim, 0);
    m.sliding_window = opt_int(jm, "sliding_window", mw, m.sliding_window, 0);
    m.full_attention_interval = opt_int(jm, "full_attention_interval", mw, m.full_attention_interval, 0);
    // Multi-token prediction: off unless the row gives mtp_layers or its note says it trains
    // with it (the Megatron-Bridge tables' convention: "w/o MTP" unless the row says otherwise).
    const std::string note = folded(opt_string(jc, "note", where, ""));
    const bool with_mtp = note.find("withmultitokenprediction") != std::string::npos || note.find("wmtp") != std::string::npos;
    m.mtp_layers = opt_int(jm, "mtp_layers", mw, with_mtp ? std::max(1, preset ? preset->model.mtp_layers : 1) : 0, 0);
}

// A row's `erratum` (docs/model.md, "Validation"): {"published": {field: value as the source
// printed it, ...}, "reason": "the evidence"}, where the row's `strategy` holds what ran. Each
// field must be one of the strategy's integer fields, given there, and differ from it: an erratum
// that changes nothing, or names a field the row does not set, is refused.
void read_erratum(const json& jc, const json& strategy, const std::string& where, MeasuredCase& mc) {
    const auto eit = jc.find("erratum");
    if (eit == jc.end()) return;
    const std::string ew = where + ".erratum";
    if (!eit->is_object()) throw std::runtime_error(ew + ": expected an object with \"published\" and \"reason\", got " + eit->dump());
    for (const auto& item : eit->items())
        if (item.key() != "published" && item.key() != "reason")
            throw std::runtime_error(ew + "." + item.key() + ": unknown key (allowed: published, reason)");
    mc.correction_reason = opt_string(*eit, "reason", ew, "");
    if (mc.correction_reason.find_first_not_of(" \t\n") == std::string::npos)
        throw std::runtime_error(ew + ".reason: missing or empty (say what shows the source is wrong)");
    const auto pit = eit->find("published");
    if (pit == eit->end() || !pit->is_object() || pit->empty())
        throw std::runtime_error(ew + ".published: expected an object of the fields as the source printed them, e.g. {\"ep\": 8}");
    static constexpr const char* fields[] = {"tp", "pp", "cp", "ep", "etp", "vp", "microbatch", "fsdp", "dp"};
    const std::string pw = ew + ".published";
    for (const auto& item : pit->items()) {
        const std::string& key = item.key();
        std::string path = pw;  // where.erratum.published.<key>
        path += '.';
        path += key;
        if (std::find_if(std::begin(fields), std::end(fields), [&](const char* f) { return key == f; }) == std::end(fields))
            throw std::runtime_error(path.append(": not a strategy field (allowed: tp, pp, cp, ep, etp, vp, microbatch, fsdp, dp)"));
        const int published = get_int(*pit, key.c_str(), pw, key == "fsdp" ? 0 : 1);
        if (!strategy.contains(key))
            throw std::runtime_error(
                path.append(": the row's strategy does not give ").append(key).append("; give the value that ran there"));
        const int used = get_int(strategy, key.c_str(), where + ".strategy", key == "fsdp" ? 0 : 1);
        if (published == used)
            throw std::runtime_error(path.append(" = ")
                                         .append(std::to_string(published))
                                         .append(": the same as the strategy's; an erratum must change the field"));
        if (!mc.corrected.empty()) mc.corrected += ", ";
        mc.corrected.append(key).append(" ").append(std::to_string(published)).append(" -> ").append(std::to_string(used));
    }
}

// A row's "software_settings": what its run set differently from the software preset, each a
// field of the software section (docs/scenario-format.md) with that field's type and range.
void read_software_settings(const json& jc, const std::string& where, MeasuredCase& mc) {
    const auto it = jc.find("software_settings");
    if (it == jc.end()) return;
    const std::string at = where + ".software_settings";
    if (!it->is_object() || it->empty())
        throw std::runtime_error(at + ": expected an object of software fields (\"weight_bytes\": 2, ...), got " + it->dump());
    std::vector<const FieldDesc*> fields;
    for (const FieldDesc& f : all_fields())
        if (f.path.starts_with("software.") && f.type != FieldType::list) fields.push_back(&f);
    for (const auto& item : it->items()) {
        const std::string path = "software." + item.key();
        const auto match = std::find_if(fields.begin(), fields.end(), [&](const FieldDesc* f) { return f->path == path; });
        if (match == fields.end()) {
            std::string known;
            for (const FieldDesc* f : fields) known.append(known.empty() ? "" : ", ").append(f->path.substr(9));
            std::string message = at + "." + item.key();
            message.append(": not a software field (known: ").append(known).append(")");
            throw std::runtime_error(message);
        }
        const FieldDesc& f = **match;
        const json& v = item.value();
        const std::string here = at + "." + item.key();
        double value = 0;
        std::string text;
        switch (f.type) {
            case FieldType::boolean:
                if (!v.is_boolean()) throw std::runtime_error(here + ": expected true or false, got " + v.dump());
                value = v.get<bool>() ? 1.0 : 0.0;
                text = v.get<bool>() ? "true" : "false";
                break;
            case FieldType::choice: {
                const auto name = v.is_string() ? v.get<std::string>() : std::string();
                const auto c = std::find(f.choices.begin(), f.choices.end(), name);
                if (!v.is_string() || c == f.choices.end()) {
                    std::string names;
                    for (std::string_view n : f.choices) names.append(names.empty() ? "" : ", ").append(n);
                    std::string message = here + " = " + v.dump();
                    message.append(": must be one of ").append(names);
                    throw std::runtime_error(message);
                }
                value = static_cast<double>(c - f.choices.begin());
                text = name;
                break;
            }
            default:
                if (!v.is_number() || !std::isfinite(v.get<double>()))
                    throw std::runtime_error(here + ": expected a number, got " + v.dump());
                value = v.get<double>();
                if (f.ranged && (value > f.max || value < f.min || (f.min_exclusive && value == f.min)))
                    throw std::runtime_error(here + " = " + v.dump() + ": must be " + std::string(f.allowed));
                text = v.dump();
        }
        mc.software_settings.emplace_back(path, value);
        mc.software_settings_text += (mc.software_settings_text.empty() ? "" : ", ") + item.key() + " " + text;
    }
}

// The measurement and the verdict on what the model can take, shared by both kinds of row.
void read_measured(const json& jc, const std::string& where, MeasuredCase& mc) {
    const auto meas = jc.find("measured");
    if (meas == jc.end() || !meas->is_object()) throw std::runtime_error(where + ".measured: missing or not an object");
    const char* key = meas->contains("iteration_time_s_derived") ? "iteration_time_s_derived" : "iteration_time_s";
    mc.measured_iteration_s = get_positive(*meas, key, where + ".measured");
    mc.measured_tflops_per_gpu =
        meas->contains("model_tflops_per_gpu") ? get_positive(*meas, "model_tflops_per_gpu", where + ".measured") : 0.0;
    // A field out of range is a row the model cannot take, not a broken file.
    if (const auto errs = check_config(mc.config); !errs.empty() && errs.front().path.rfind("node.", 0) != 0)
        mc.inexpressible = errs.front().message();
}

// A DLRM row (docs/model.md, "Validation"): `"workload": "dlrm"`, the model as a DLRM preset
// named by `model_name` (its `dlrm` object may override the tables' data type and optimizer),
// `gpus`, `global_batch` (samples), `precision` of the MLPs, `cuda_graphs`, and a `strategy`
// with `dp` (all GPUs) and, where the source publishes them, `emb_sharding`, `emb_placement`
// and `emb_state`; what it does not publish is searched (predict_case).
MeasuredCase read_dlrm_case(const json& jc, const std::string& where, const std::vector<ModelPreset>& models, const std::string& software) {
    refuse_unknown_keys(jc,
                        {"id",         "hardware", "software",     "system",     "source",      "note",  "unpublished_knobs", "workload",
                         "model_name", "dlrm",     "global_batch", "precision",  "cuda_graphs", "gpus",  "strategy",          "measured",
                         "tp",         "pp",       "dp",           "microbatch", "erratum",     "model", "software_settings"},
                        where);
    MeasuredCase mc;
    mc.id = opt_string(jc, "id", where, where);
    mc.hardware = opt_string(jc, "hardware", where, "");
    mc.software = opt_string(jc, "software", where, software);
    read_software_settings(jc, where, mc);
    Config& c = mc.config;
    c.workload = Workload::dlrm;
    const std::string name = opt_string(jc, "model_name", where, "");
    const ModelPreset* preset = nullptr;
    for (const auto& p : models)
        if (p.workload == Workload::dlrm && !name.empty() && (folded(p.id) == folded(name) || folded(p.info.name) == folded(name)))
            preset = &p;
    if (!preset) throw std::runtime_error(where + ".model_name = \"" + name + "\": names no DLRM model preset (a DLRM row needs one)");
    c.dlrm = preset->dlrm;
    if (const auto dit = jc.find("dlrm"); dit != jc.end()) {
        const std::string dw = where + ".dlrm";
        if (!dit->is_object()) throw std::runtime_error(dw + ": expected an object");
        for (const auto& item : dit->items())
            if (item.key() != "embedding_dtype" && item.key() != "table_optimizer")
                throw std::runtime_error(dw + "." + item.key() + ": unknown key (allowed: embedding_dtype, table_optimizer)");
        if (dit->contains("embedding_dtype"))
            c.dlrm.embedding_dtype =
                parse_named(sections::embedding_dtype_names, opt_string(*dit, "embedding_dtype", dw, ""), dw, "embedding_dtype");
        if (dit->contains("table_optimizer"))
            c.dlrm.table_optimizer =
                parse_named(sections::embedding_optimizer_names, opt_string(*dit, "table_optimizer", dw, ""), dw, "table_optimizer");
    }
    TrainingSpec& tr = c.training;
    tr.global_batch = get_int(jc, "global_batch", where);
    tr.precision = parse_precision(opt_string(jc, "precision", where, "fp16"), where);
    tr.cuda_graphs = opt_bool(jc, "cuda_graphs", where, false);
    const int gpus = get_int(jc, "gpus", where);
    Strategy& s = c.strategy;
    s = Strategy{};
    s.dp = gpus;
    if (const auto sit = jc.find("strategy"); sit != jc.end()) {
        const std::string sw = where + ".strategy";
        if (!sit->is_object()) throw std::runtime_error(sw + ": expected an object");
        for (const auto& item : sit->items())
            if (item.key() != "dp" && item.key() != "emb_sharding" && item.key() != "emb_placement" && item.key() != "emb_state" &&
                item.key() != "dp_overlap")
                throw std::runtime_error(sw + "." + item.key() +
                                         ": not a DLRM strategy key (allowed: dp, emb_sharding, emb_placement, emb_state, dp_overlap)");
        s.dp = opt_int(*sit, "dp", sw, gpus);
        if (s.dp != gpus)
            throw std::runtime_error(sw + ".dp = " + std::to_string(s.dp) + " differs from gpus = " + std::to_string(gpus) +
                                     " (a DLRM runs every GPU data-parallel)");
        s.dp_overlap = opt_bool(*sit, "dp_overlap", sw, true);
        if (sit->contains("emb_sharding")) {
            s.emb_sharding = parse_named(sections::emb_sharding_names, opt_string(*sit, "emb_sharding", sw, ""), sw, "emb_sharding");
            mc.emb_sharding_published = true;
        }
        if (sit->contains("emb_placement")) {
            s.emb_placement = parse_named(sections::emb_placement_names, opt_string(*sit, "emb_placement", sw, ""), sw, "emb_placement");
            mc.emb_placement_published = true;
        }
        if (sit->contains("emb_state")) {
            s.emb_state = parse_named(sections::emb_state_names, opt_string(*sit, "emb_state", sw, ""), sw, "emb_state");
            mc.emb_state_published = true;
        }
    }
    assume_software(mc, "torchrec-eager");
    for (const char* key : {"tp", "pp", "dp", "microbatch", "erratum", "model"})
        if (jc.contains(key))
            throw std::runtime_error(where + "." + key + ": not a DLRM row's key (the strategy object holds dp and the tables' placement)");
    read_measured(jc, where, mc);
    return mc;
}

// A row with a strategy object: Megatron-Core as NVIDIA publishes it (see the header).
void read_modern_strategy(const json& jc, const json& st, const std::string& where, MeasuredCase& mc) {
    Strategy& s = mc.config.strategy;
    TrainingSpec& tr = mc.config.training;
    if (!st.is_object()) throw std::runtime_error(where + ".strategy: expected an object");
    const std::string sw = where + ".strategy";
    refuse_unknown_keys(st,
                        {"tp", "pp", "cp", "ep", "etp", "vp", "microbatch", "fsdp", "dp", "sequence_parallel", "recompute", "tp_overlap",
                         "pp_overlap", "ep_dispatch", "offload_activations", "offload_weights", "offload_optimizer"},
                        sw);
    s.tp = get_int(st, "tp", sw);
    s.pp = get_int(st, "pp", sw);
    s.cp = opt_int(st, "cp", sw, 1);
    s.ep = opt_int(st, "ep", sw, 1);
    s.etp = opt_int(st, "etp", sw, 1);
    // The virtual pipeline size, where the row publishes it; else searched like the microbatch.
    s.interleave = opt_int(st, "vp", sw, 1);
    mc.interleave_published = st.contains("vp");
    if (st.contains("microbatch")) {
        s.microbatch = get_int(st, "microbatch", sw);
        mc.microbatch_published = true;
    }
    const int fsdp = opt_int(st, "fsdp", sw, 0, 0);
    const int gpus = get_int(jc, "gpus", where);
    const long long model_ranks = static_cast<long long>(s.tp) * s.pp * s.cp;
    if (gpus % model_ranks != 0)
        throw std::runtime_error(where + ": gpus = " + std::to_string(gpus) +
                                 " is not a multiple of tp*pp*cp = " + std::to_string(model_ranks));
    s.dp = opt_int(st, "dp", sw, static_cast<int>(gpus / model_ranks));
    if (model_ranks * s.dp != gpus)
        throw std::runtime_error(where + ": tp*pp*cp*dp = " + std::to_string(model_ranks * s.dp) +
                                 " differs from gpus = " + std::to_string(gpus));
    s.zero_stage = fsdp > 0 ? 3 : 1;
    if (fsdp > 0 && fsdp < s.dp * s.cp) s.zero_shard = fsdp;
    s.sequence_parallel = opt_bool(st, "sequence_parallel", sw, s.tp > 1);
    if (st.contains("recompute")) {
        s.recompute = parse_recompute(opt_string(st, "recompute", sw, "none"), sw);
        mc.recompute_published = true;
    }
    if (st.contains("tp_overlap")) {
        s.tp_overlap = opt_bool(st, "tp_overlap", sw, false);
        mc.tp_overlap_published = true;
    }
    // Megatron-Bridge overlaps the pipeline transfers whenever vp > 1 (overlap_p2p_comm).
    s.pp_overlap = opt_bool(st, "pp_overlap", sw, true);
    // The token dispatcher, where the row's recipe names one (Megatron-Core's all-to-all
    // dispatcher otherwise): "hierarchical" for the flex dispatcher with DeepEP or HybridEP.
    if (st.contains("ep_dispatch"))
        s.ep_dispatch = parse_named(sections::ep_dispatch_names, opt_string(st, "ep_dispatch", sw, "all_to_all"), sw, "ep_dispatch");
    // What the recipe moves to the expanded tier (host memory), where it says so: MaxText's
    // `decoder_layer_input=offload` is the model's activation offload.
    s.offload_activations = opt_bool(st, "offload_activations", sw, false);
    s.offload_weights = opt_bool(st, "offload_weights", sw, false);
    s.offload_optimizer = opt_bool(st, "offload_optimizer", sw, false);
    read_erratum(jc, st, where, mc);
    assume_software(mc, "megatron-core-te-eager");
    tr.attention = AttentionKernel::fused;
    tr.dropout = false;
}

// A row of Megatron-LM of 2021 (Narayanan et al.): no TP overlap, unfused attention, dropout.
void read_2021_strategy(const json& jc, const std::string& where, MeasuredCase& mc) {
    Strategy& s = mc.config.strategy;
    TrainingSpec& tr = mc.config.training;
    if (jc.contains("erratum"))
        throw std::runtime_error(where + ".erratum: only a row with a strategy object can correct its source's fields");
    s.tp = get_int(jc, "tp", where);
    s.pp = get_int(jc, "pp", where);
    s.dp = get_int(jc, "dp", where);
    s.sequence_parallel = opt_bool(jc, "sequence_parallel", where, false);
    s.zero_stage = opt_int(jc, "zero_stage", where, 0, 0);
    if (jc.contains("recompute")) {
        s.recompute = parse_recompute(opt_string(jc, "recompute", where, "none"), where);
        mc.recompute_published = true;
    }
    if (jc.contains("microbatch")) {
        s.microbatch = get_int(jc, "microbatch", where);
        mc.microbatch_published = true;
    }
    if (jc.contains("interleave")) {
        s.interleave = get_int(jc, "interleave", where);
        mc.interleave_published = true;
    }
    mc.tp_overlap_published = true;  // no TP overlap in 2021
    assume_software(mc, "megatron-lm-2021");
    s.pp_overlap = false;  // nor pipeline transfers behind compute (blocking p2p)
    tr.attention = AttentionKernel::unfused;
    tr.dropout = true;
    const int gpus = get_int(jc, "gpus", where);
    if (static_cast<long long>(s.tp) * s.pp * s.dp != gpus)
        throw std::runtime_error(where + ": tp*pp*dp = " + std::to_string(static_cast<long long>(s.tp) * s.pp * s.dp) +
                                 " differs from gpus = " + std::to_string(gpus));
}

MeasuredCase read_case(const json& jc, const std::string& where, const std::vector<ModelPreset>& models, const std::string& software) {
    if (!jc.is_object()) throw std::runtime_error(where + ": expected an object");
    if (const std::string workload = opt_string(jc, "workload", where, "transformer"); workload == "dlrm")
        return read_dlrm_case(jc, where, models, software);
    else if (workload != "transformer")
        throw std::runtime_error(where + ".workload = \"" + workload + "\": must be transformer or dlrm");
    refuse_unknown_keys(jc,
                        {"id",
                         "hardware",
                         "software",
                         "system",
                         "source",
                         "note",
                         "unpublished_knobs",
                         "workload",
                         "model",
                         "model_name",
                         "gpus",
                         "global_batch",
                         "precision",
                         "attention",
                         "dropout",
                         "cuda_graphs",
                         "measured",
                         "strategy",
                         "erratum",
                         "tp",
                         "pp",
                         "dp",
                         "sequence_parallel",
                         "zero_stage",
                         "recompute",
                         "microbatch",
                         "interleave",
                         "software_settings"},
                        where);
    MeasuredCase mc;
    mc.id = opt_string(jc, "id", where, where);
    mc.hardware = opt_string(jc, "hardware", where, "");
    mc.software = opt_string(jc, "software", where, software);
    read_software_settings(jc, where, mc);
    read_model(jc, where, models, mc.config.model);

    TrainingSpec& tr = mc.config.training;
    tr.global_batch = get_int(jc, "global_batch", where);
    if (const auto sit = jc.find("strategy"); sit != jc.end())
        read_modern_strategy(jc, *sit, where, mc);
    else
        read_2021_strategy(jc, where, mc);
    tr.precision = parse_precision(opt_string(jc, "precision", where, "fp16"), where);
    const std::string att = opt_string(jc, "attention", where, tr.attention == AttentionKernel::fused ? "fused" : "unfused");
    if (att != "fused" && att != "unfused") throw std::runtime_error(where + ".attention = \"" + att + "\": must be fused or unfused");
    tr.attention = att == "fused" ? AttentionKernel::fused : AttentionKernel::unfused;
    tr.dropout = opt_bool(jc, "dropout", where, tr.dropout);
    tr.cuda_graphs = opt_bool(jc, "cuda_graphs", where, tr.cuda_graphs);
    read_measured(jc, where, mc);
    return mc;
}

}  // namespace

Loaded<MeasurementSet> load_measurements(const std::filesystem::path& file, const std::vector<ModelPreset>& models) {
    Loaded<MeasurementSet> out;
    const std::string label = file.string();
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        out.errors.push_back(label + ": cannot open");
        return out;
    }
    std::stringstream buf;
    buf << in.rdbuf();
    const json j = json::parse(buf.str(), nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
        out.errors.push_back(label + ": not a JSON object");
        return out;
    }
    MeasurementSet set;
    set.file = label;
    set.source = j.contains("source") && j["source"].is_string() ? j["source"].get<std::string>() : "";
    // The software every row ran on, unless a row names its own.
    std::string software;
    if (const auto it = j.find("software"); it != j.end()) {
        if (!it->is_string()) {
            out.errors.push_back(label + ": software: expected the name of a software preset, got " + it->dump());
            return out;
        }
        software = it->get<std::string>();
    }
    const auto cases = j.find("cases");
    if (cases == j.end() || !cases->is_array()) {
        out.errors.push_back(label + ": cases: missing or not an array");
        return out;
    }
    for (std::size_t i = 0; i < cases->size(); ++i) {
        try {
            set.cases.push_back(read_case((*cases)[i], "cases[" + std::to_string(i) + "]", models, software));
        } catch (const std::exception& e) {
            out.errors.push_back(label + ": " + e.what());
        }
    }
    if (out.errors.empty()) out.value = std::move(set);
    return out;
}

namespace {
// A DLRM row: the tables' sharding, placement and state tier the source does not publish are
// searched, each taking the value the model finds fastest among feasible ones (the rule of
// every row); the cache's share and hit rate keep their defaults (used only with `cached`).
Prediction predict_dlrm_case(Prediction best, Config c) {
    const MeasuredCase& mc = best.measured;
    std::vector<EmbeddingSharding> shardings{mc.config.strategy.emb_sharding};
    std::vector<EmbeddingPlacement> placements{mc.config.strategy.emb_placement};
    std::vector<EmbeddingStateTier> states{mc.config.strategy.emb_state};
    if (!mc.emb_sharding_published) {
        best.searched_knobs.emplace_back("emb_sharding");
        shardings = {EmbeddingSharding::table_wise, EmbeddingSharding::row_wise, EmbeddingSharding::column_wise};
    }
    if (!mc.emb_placement_published) {
        best.searched_knobs.emplace_back("emb_placement");
        placements = {EmbeddingPlacement::hbm};
        if (c.node.expanded.capacity_gib > 0)
            placements.insert(placements.end(), {EmbeddingPlacement::expanded, EmbeddingPlacement::cached});
    }
    if (!mc.emb_state_published) {
        best.searched_knobs.emplace_back("emb_state");
        states = {EmbeddingStateTier::with_rows, EmbeddingStateTier::hbm};
        if (c.node.expanded.capacity_gib > 0) states.push_back(EmbeddingStateTier::expanded);
    }
    bool found = false;
    for (const EmbeddingSharding sh : shardings)
        for (const EmbeddingPlacement pl : placements)
            for (const EmbeddingStateTier st : states) {
                c.strategy.emb_sharding = sh;
                c.strategy.emb_placement = pl;
                c.strategy.emb_state = st;
                const Result r = evaluate(c);
                ++best.searched;
                if (r.feasible && (!found || r.iteration_s < best.result.iteration_s)) {
                    found = true;
                    best.result = r;
                    best.strategy = c.strategy;
                } else if (!found && best.searched == 1) {
                    best.result = r;
                    best.strategy = c.strategy;
                }
            }
    return best;
}
}  // namespace

Prediction predict_case(const MeasuredCase& mc, const NodeSpec& node, const SoftwareSpec& software) {
    Prediction best;
    best.measured = mc;
    best.strategy = mc.config.strategy;
    Config c = mc.config;
    c.node = node;
    c.software = software;
    const long long gpus = accelerators_used(c.strategy);
    c.cluster.nodes = static_cast<int>((gpus + node.accelerators - 1) / node.accelerators);
    if (!mc.inexpressible.empty()) {
        best.result = infeasible(Infeasible::invalid_input);
        return best;
    }
    if (c.workload == Workload::dlrm) return predict_dlrm_case(std::move(best), c);
    const long long per_replica = c.training.global_batch / c.strategy.dp;
    std::vector<int> mbs, vs;
    if (mc.microbatch_published) {
        mbs = {mc.config.strategy.microbatch};
    } else {
        best.searched_knobs.push_back("microbatch");
        // The divisors in ascending order, found up to the square root (a row's batch may be
        // up to 2^31: a scan of every value would take seconds).
        std::vector<int> upper;
        for (long long b = 1; b * b <= per_replica; ++b) {
            if (per_replica % b != 0) continue;
            mbs.push_back(static_cast<int>(b));
            if (b * b != per_replica) upper.push_back(static_cast<int>(per_replica / b));
        }
        mbs.insert(mbs.end(), upper.rbegin(), upper.rend());
    }
    if (mc.interleave_published || c.strategy.pp == 1) {
        vs = {mc.config.strategy.interleave};
    } else {
        // The same rule for every row: interleavings that split the layers evenly.
        best.searched_knobs.push_back("interleave");
        for (int v = 1; v <= c.model.layers / c.strategy.pp; ++v)
            if (c.model.layers % (c.strategy.pp * v) == 0) vs.push_back(v);
    }
    std::vector<Recompute> rcs{mc.config.strategy.recompute};
    if (!mc.recompute_published) {
        best.searched_knobs.push_back("recompute");
        rcs = {Recompute::none, Recompute::selective, Recompute::full};
    }
    std::vector<bool> overlaps{mc.config.strategy.tp_overlap};
    if (!mc.tp_overlap_published && c.strategy.tp > 1) {
        best.searched_knobs.push_back("tp_overlap");
        overlaps = {false, true};
    }
    bool found = false;
    auto consider = [&]() {
        const Result r = evaluate(c);
        ++best.searched;
        if (r.feasible && (!found || r.iteration_s < best.result.iteration_s)) {
            found = true;
            best.result = r;
            best.strategy = c.strategy;
        } else if (!found && best.searched == 1) {
            best.result = r;
            best.strategy = c.strategy;
        }
    };
    for (const int b : mbs)
        for (const int v : vs)
            for (const Recompute rc : rcs)
                for (const bool ov : overlaps) {
                    c.strategy.microbatch = b;
                    c.strategy.interleave = v;
                    c.strategy.recompute = rc;
                    c.strategy.tp_overlap = ov;
                    c.strategy.recompute_layers = mc.config.strategy.recompute_layers;
                    // A published pp x vp with more virtual stages than the automatic layout can
                    // fill (Llama 3.1 405B: 126 layers at pp 16 x vp 8) runs, as Megatron-Bridge's
                    // recipe sets it, with the embedding and the loss counted as layers.
                    c.strategy.embedding_in_pipeline_split = mc.config.strategy.embedding_in_pipeline_split;
                    c.strategy.loss_in_pipeline_split = mc.config.strategy.loss_in_pipeline_split;
                    if (!stage_layout(c.model.layers, c.strategy).ok)
                        c.strategy.embedding_in_pipeline_split = c.strategy.loss_in_pipeline_split = true;
                    consider();
                    // Unpublished recomputation: full recomputation of 1 .. all layers of each
                    // virtual stage (Megatron-LM's recompute_num_layers), the fastest that fits.
                    if (!mc.recompute_published && rc == Recompute::full) {
                        const int chunk = (c.model.layers + c.strategy.pp * v - 1) / (c.strategy.pp * v);
                        for (int n = 1; n < chunk; ++n) {
                            c.strategy.recompute_layers = n;
                            consider();
                        }
                    }
                }
    // No candidate at all (a batch smaller than dp, more stages than layers): the published
    // strategy itself is evaluated, so that the row says why it cannot run.
    if (best.searched == 0) {
        c.strategy = mc.config.strategy;
        consider();
    }
    return best;
}

void ErrorStats::add(double error, double measured_mfu) noexcept {
    min_signed = cases == 0 ? error : std::min(min_signed, error);
    max_signed = cases == 0 ? error : std::max(max_signed, error);
    if (std::isfinite(measured_mfu)) max_measured_mfu = std::max(max_measured_mfu, measured_mfu);
    ++cases;
    mean_abs += std::fabs(error);
    mean_signed += error;
    worst_abs = std::max(worst_abs, std::fabs(error));
    (error > 0 ? too_slow : too_fast) += 1;
}

void ErrorStats::finish() noexcept {
    if (cases > 0) {
        mean_abs /= cases;
        mean_signed /= cases;
    }
}

std::vector<std::filesystem::path> validation_files(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> files;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec))
        if (e.path().extension() == ".json") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

namespace {
HardwareStats& group_entry(std::vector<HardwareStats>& list, const std::string& id, const std::string& name) {
    for (auto& h : list)
        if (h.node_id == id) return h;
    list.push_back({id, name, {}});
    return list.back();
}

// The MFU the published run reached, in the model's convention: the model's MFU of the row scaled
// by predicted / measured time (a DLRM row has none).
double measured_mfu(const Prediction& p) {
    if (p.measured.config.workload != Workload::transformer || p.measured.measured_iteration_s <= 0) return 0;
    return p.result.mfu * p.result.iteration_s / p.measured.measured_iteration_s;
}

PairStats& pair_entry(std::vector<PairStats>& list, const std::string& node_id, const std::string& software_id) {
    for (auto& p : list)
        if (p.node_id == node_id && p.software_id == software_id) return p;
    list.push_back({node_id, software_id, {}});
    return list.back();
}

std::string preset_ids(const std::vector<SoftwarePreset>& all) {
    std::string out;
    for (const auto& p : all) out += (out.empty() ? "" : ", ") + p.id;
    return out.empty() ? "none found" : out;
}
}  // namespace

SoftwareSpec row_software(const MeasuredCase& mc, const SoftwareSpec& preset) {
    Config c;
    c.software = preset;
    for (const auto& [path, value] : mc.software_settings)
        for (const FieldDesc& f : all_fields())
            if (f.path == path) f.set(c, value);
    return c.software;
}

ValidationRun run_validation(const std::vector<std::filesystem::path>& files, const std::vector<NodePreset>& nodes,
                             const std::vector<ModelPreset>& models, const std::vector<SoftwarePreset>& software) {
    ValidationRun run;
    for (const auto& f : files) {
        const auto set = load_measurements(f, models);
        if (!set.ok()) {
            run.errors.push_back(set.error_text());
            continue;
        }
        TableValidation table;
        table.file = f.filename().string();
        table.source = set.value->source;
        for (const auto& row : set.value->cases) {
            // A row whose hardware or software has no preset is listed with the reason.
            MeasuredCase mc = row;
            const NodePreset* node = match_node_preset(nodes, mc.hardware);
            const SoftwarePreset* sw = match_software_preset(software, mc.software);
            if (mc.inexpressible.empty() && node == nullptr) mc.inexpressible = "no node preset matches hardware \"" + mc.hardware + "\"";
            if (mc.inexpressible.empty() && sw == nullptr)
                mc.inexpressible = "no software preset matches \"" + mc.software + "\" (presets: " + preset_ids(software) + ")";
            Prediction p = node != nullptr && sw != nullptr ? predict_case(mc, node->node, row_software(mc, sw->software)) : Prediction{};
            if (node == nullptr || sw == nullptr) {
                p.measured = mc;
                p.strategy = mc.config.strategy;
                p.result = infeasible(Infeasible::invalid_input);
            }
            std::vector<ErrorStats*> groups{&table.stats, &run.all};
            if (node != nullptr) {
                groups.push_back(&group_entry(table.hardware, node->id, node->info.name).stats);
                groups.push_back(&group_entry(run.hardware, node->id, node->info.name).stats);
            }
            if (sw != nullptr) {
                groups.push_back(&group_entry(table.software, sw->id, sw->info.name).stats);
                groups.push_back(&group_entry(run.software, sw->id, sw->info.name).stats);
            }
            if (node != nullptr && sw != nullptr) groups.push_back(&pair_entry(run.pairs, node->id, sw->id).stats);
            for (ErrorStats* st : groups) {
                if (p.result.feasible)
                    st->add(p.error(), measured_mfu(p));
                else
                    ++st->inexpressible;
            }
            table.predictions.push_back(std::move(p));
        }
        run.tables.push_back(std::move(table));
    }
    for (auto& t : run.tables) {
        t.stats.finish();
        for (auto& h : t.hardware) h.stats.finish();
        for (auto& h : t.software) h.stats.finish();
    }
    for (auto& h : run.hardware) h.stats.finish();
    for (auto& h : run.software) h.stats.finish();
    for (auto& h : run.pairs) h.stats.finish();
    run.all.finish();
    return run;
}

namespace {
// "NAME: 6 published runs, mean error 7 %, signed -5 % (worst 12 %; 2 slower, 4 faster)", or
// empty for a group without rows.
std::string stats_summary(const ErrorStats& s, const std::string& name) {
    if (s.cases == 0) {
        if (s.inexpressible == 0) return {};
        return name + ": not validated: " + std::to_string(s.inexpressible) + " published run" + (s.inexpressible == 1 ? "" : "s") +
               ", none expressible (see comet-cli validate)";
    }
    char buf[320];
    std::snprintf(buf, sizeof buf, "%s: %d published run%s, mean error %.0f %%, signed %+.0f %% (worst %.0f %%; %d slower, %d faster)",
                  name.c_str(), s.cases, s.cases == 1 ? "" : "s", 100 * s.mean_abs, 100 * s.mean_signed, 100 * s.worst_abs, s.too_slow,
                  s.too_fast);
    std::string out = buf;
    if (s.inexpressible > 0) out += ", " + std::to_string(s.inexpressible) + " not expressible";
    return out;
}
}  // namespace

std::string validation_summary(const ValidationRun& run, const std::string& node_id, const std::string& node_name) {
    for (const auto& h : run.hardware)
        if (h.node_id == node_id) {
            std::string out = stats_summary(h.stats, node_name);
            if (!out.empty()) return out;
        }
    return node_name + ": not validated against published runs";
}

std::string software_validation_summary(const ValidationRun& run, const std::string& software_id, const std::string& software_name,
                                        const std::string& node_id, const std::string& node_name) {
    std::string out;
    for (const auto& h : run.software)
        if (h.node_id == software_id) out = stats_summary(h.stats, software_name);
    if (out.empty()) out = software_name + ": not validated against published runs";
    if (node_id.empty()) return out + ". On an edited node: not validated";
    for (const auto& p : run.pairs) {
        if (p.node_id != node_id || p.software_id != software_id || p.stats.cases == 0) continue;
        char buf[200];
        std::snprintf(buf, sizeof buf, ". On %s: %d run%s, mean error %.0f %%, signed %+.0f %%", node_name.c_str(), p.stats.cases,
                      p.stats.cases == 1 ? "" : "s", 100 * p.stats.mean_abs, 100 * p.stats.mean_signed);
        return out + buf;
    }
    return out + ". On " + node_name + ": no published run";
}

namespace {
const ErrorStats* group_stats(const std::vector<HardwareStats>& list, const std::string& id) {
    if (id.empty()) return nullptr;
    for (const auto& h : list)
        if (h.node_id == id) return &h.stats;
    return nullptr;
}
}  // namespace

TrustBand trust_band(const ValidationRun& run, const std::string& node_id, const std::string& node_name, const std::string& software_id,
                     const std::string& software_name) {
    TrustBand band;
    const ErrorStats* node = group_stats(run.hardware, node_id);
    const ErrorStats* software = group_stats(run.software, software_id);
    const ErrorStats* pair = nullptr;
    if (!node_id.empty() && !software_id.empty())
        for (const auto& p : run.pairs)
            if (p.node_id == node_id && p.software_id == software_id) pair = &p.stats;
    if (node) band.max_measured_mfu = node->max_measured_mfu;
    const std::pair<const ErrorStats*, std::string> bases[] = {
        {pair, node_name + " with " + software_name},
        {node, node_name + ", any software"},
        {software, software_name + ", any hardware"},
    };
    const std::pair<const ErrorStats*, std::string>* chosen = nullptr;
    for (const auto& b : bases)
        if (b.first && b.first->cases >= trust_min_runs) {
            chosen = &b;
            break;
        }
    if (!chosen)
        for (const auto& b : bases)
            if (b.first && b.first->cases > 0 && (!chosen || b.first->cases > chosen->first->cases)) chosen = &b;
    if (!chosen) return band;
    const ErrorStats& s = *chosen->first;
    band.basis = chosen->second;
    band.runs = s.cases;
    band.mean_abs = s.mean_abs;
    band.mean_signed = s.mean_signed;
    band.low = 1.0 / (1.0 + s.max_signed);
    band.high = 1.0 / (1.0 + s.min_signed);
    return band;
}

TrustBand trust_band_for(const ValidationRun& run, const NodeSpec& node, const std::vector<NodePreset>& node_presets,
                         const SoftwareSpec& software, const std::string& software_name,
                         const std::vector<SoftwarePreset>& software_presets) {
    const NodePreset* on = node_preset_of(node_presets, node);
    const SoftwarePreset* with = software_preset_of(software_presets, software, software_name);
    return trust_band(run, on ? on->id : std::string(), on ? on->info.name : std::string("edited node"), with ? with->id : std::string(),
                      with ? with->info.name : std::string("edited software"));
}

ShippedValidation load_shipped_validation() {
    std::vector<std::string> errors;
    ShippedValidation v;
    v.nodes = load_node_presets(errors);
    v.software = load_software_presets(errors);
    v.run = run_validation(validation_files(presets_dir() / "validation"), v.nodes, load_model_presets(errors), v.software);
    return v;
}

TrustBand shipped_trust_band(const Config& config, const std::string& software_name) {
    return load_shipped_validation().band(config, software_name);
}

std::string format_trust_range(const TrustBand& band) {
    if (!band.validated()) return "not validated";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%+.0f %% to %+.0f %%", 100 * (band.low - 1), 100 * (band.high - 1));
    return buf;
}

std::string format_trust_band(const TrustBand& band) {
    if (!band.validated()) return "not validated against published runs";
    char buf[400];
    std::snprintf(buf, sizeof buf, "likely %s (%d published run%s of %s: mean error %.0f %%, signed %+.0f %%)",
                  format_trust_range(band).c_str(), band.runs, band.runs == 1 ? "" : "s", band.basis.c_str(), 100 * band.mean_abs,
                  100 * band.mean_signed);
    return buf;
}

}  // namespace comet
