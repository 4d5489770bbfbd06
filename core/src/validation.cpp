#include "comet/validation.hpp"

#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "comet/evaluate.hpp"

namespace comet {
namespace {

using nlohmann::json;

// Reads one case; throws std::runtime_error with the key path on malformed input (caught by
// load_measurements, so nothing escapes to the caller).
int get_int(const json& j, const char* key, const std::string& where) {
    const auto it = j.find(key);
    if (it == j.end()) throw std::runtime_error(where + "." + key + ": missing (required)");
    if (!it->is_number_integer() || it->get<long long>() < 1 || it->get<long long>() > std::numeric_limits<int>::max())
        throw std::runtime_error(where + "." + key + ": expected a positive integer, got " + it->dump());
    return static_cast<int>(it->get<long long>());
}

double get_positive(const json& j, const char* key, const std::string& where) {
    const auto it = j.find(key);
    if (it == j.end()) throw std::runtime_error(where + "." + key + ": missing (required)");
    if (!it->is_number() || !(it->get<double>() > 0))
        throw std::runtime_error(where + "." + key + ": expected a positive number, got " + it->dump());
    return it->get<double>();
}

MeasuredCase read_case(const json& jc, const std::string& where) {
    if (!jc.is_object()) throw std::runtime_error(where + ": expected an object");
    MeasuredCase mc;
    mc.id = jc.value("id", where);
    mc.hardware = jc.contains("hardware") && jc["hardware"].is_string() ? jc["hardware"].get<std::string>() : "";
    const auto mit = jc.find("model");
    if (mit == jc.end() || !mit->is_object()) throw std::runtime_error(where + ".model: missing or not an object");
    ModelSpec& m = mc.config.model;
    const std::string mw = where + ".model";
    m.layers = get_int(*mit, "layers", mw);
    m.hidden = get_int(*mit, "hidden", mw);
    m.heads = get_int(*mit, "heads", mw);
    m.kv_heads = mit->contains("kv_heads") ? get_int(*mit, "kv_heads", mw) : m.heads;
    m.head_dim = mit->contains("head_dim") ? get_int(*mit, "head_dim", mw) : m.hidden / m.heads;
    m.ffn_hidden = get_int(*mit, "ffn_hidden", mw);
    m.seq_len = get_int(*mit, "seq_len", mw);
    m.vocab = get_int(*mit, "vocab", mw);
    m.gated_mlp = mit->value("gated_mlp", false);
    m.bias = mit->value("bias", true);
    m.learned_position_embeddings = mit->value("learned_position_embeddings", true);
    m.tied_embeddings = mit->value("tied_embeddings", true);

    Strategy& s = mc.config.strategy;
    s.tp = get_int(jc, "tp", where);
    s.pp = get_int(jc, "pp", where);
    s.dp = get_int(jc, "dp", where);
    mc.config.training.global_batch = get_int(jc, "global_batch", where);
    const std::string rc = jc.value("recompute", std::string("none"));
    if (rc == "full") s.recompute = Recompute::full;
    else if (rc == "selective") s.recompute = Recompute::selective;
    else if (rc == "none") s.recompute = Recompute::none;
    else throw std::runtime_error(where + ".recompute = \"" + rc + "\": must be one of none, selective, full");
    s.sequence_parallel = jc.value("sequence_parallel", false);
    s.zero_stage = jc.contains("zero_stage") ? get_int(jc, "zero_stage", where) : 0;
    if (jc.contains("microbatch")) { s.microbatch = get_int(jc, "microbatch", where); mc.microbatch_published = true; }
    if (jc.contains("interleave")) { s.interleave = get_int(jc, "interleave", where); mc.interleave_published = true; }
    const std::string prec = jc.value("precision", std::string("fp16"));
    mc.config.training.precision = prec.rfind("bf16", 0) == 0 ? Precision::bf16
                                   : prec.rfind("fp8", 0) == 0 ? Precision::fp8
                                                               : Precision::fp16;
    mc.config.training.attention = jc.value("attention", std::string("unfused")) == "fused" ? AttentionKernel::fused
                                                                                           : AttentionKernel::unfused;
    const int gpus = get_int(jc, "gpus", where);
    if (static_cast<long long>(s.tp) * s.pp * s.dp != gpus)
        throw std::runtime_error(where + ": tp*pp*dp = " + std::to_string(static_cast<long long>(s.tp) * s.pp * s.dp) +
                                 " differs from gpus = " + std::to_string(gpus));
    const auto meas = jc.find("measured");
    if (meas == jc.end() || !meas->is_object()) throw std::runtime_error(where + ".measured: missing or not an object");
    mc.measured_iteration_s = get_positive(*meas, "iteration_time_s_derived", where + ".measured");
    mc.measured_tflops_per_gpu = meas->contains("model_tflops_per_gpu")
                                     ? get_positive(*meas, "model_tflops_per_gpu", where + ".measured")
                                     : 0.0;
    return mc;
}

}  // namespace

Loaded<MeasurementSet> load_measurements(const std::filesystem::path& file) {
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
    const auto cases = j.find("cases");
    if (cases == j.end() || !cases->is_array()) {
        out.errors.push_back(label + ": cases: missing or not an array");
        return out;
    }
    for (std::size_t i = 0; i < cases->size(); ++i) {
        try {
            set.cases.push_back(read_case((*cases)[i], "cases[" + std::to_string(i) + "]"));
        } catch (const std::exception& e) {
            out.errors.push_back(label + ": " + e.what());
        }
    }
    if (out.errors.empty()) out.value = std::move(set);
    return out;
}

Prediction predict_case(const MeasuredCase& mc, const NodeSpec& node) {
    Prediction best;
    best.measured = mc;
    Config c = mc.config;
    c.node = node;
    const long long gpus = static_cast<long long>(c.strategy.tp) * c.strategy.pp * c.strategy.dp;
    c.cluster.nodes = static_cast<int>((gpus + node.accelerators - 1) / node.accelerators);
    const long long per_replica = c.training.global_batch / c.strategy.dp;
    const int max_v = c.strategy.pp > 1 ? c.model.layers / c.strategy.pp : 1;
    bool found = false;
    Result fallback;
    Strategy fallback_s = c.strategy;
    for (long long b = 1; b <= per_replica; ++b) {
        if (mc.microbatch_published && b != mc.config.strategy.microbatch) continue;
        if (per_replica % b != 0) continue;
        for (int v = 1; v <= max_v; ++v) {
            if (mc.interleave_published && v != mc.config.strategy.interleave) continue;
            c.strategy.microbatch = static_cast<int>(b);
            c.strategy.interleave = v;
            const Result r = evaluate(c);
            ++best.searched;
            if (r.feasible && (!found || r.iteration_s < best.result.iteration_s)) {
                found = true;
                best.result = r;
                best.strategy = c.strategy;
            } else if (!found && best.searched == 1) {
                fallback = r;
                fallback_s = c.strategy;
            }
        }
    }
    if (!found) {
        best.result = fallback;
        best.strategy = fallback_s;
    }
    return best;
}

}  // namespace comet
