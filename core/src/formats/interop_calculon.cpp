// Calculon (github.com/calculon-ai/calculon) application/system/execution JSON <-> Scenario.
// Written from the public file format only (docs/interop.md has the mapping tables).

#include "comet/interop.hpp"
#include "comet/report.hpp"

#include <algorithm>
#include <array>
#include <concepts>
#include <cmath>
#include <cstdio>
#include <exception>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "comet/check.hpp"
#include "formats/json_reader.hpp"
#include "formats/scenario_sections.hpp"

namespace comet {

// The highest maximum achievable matmul rate measured as a fraction of the dense peak on any GPU
// (S. Bekman's mamf-finder table, "Machine Learning Engineering": A100 SXM 267.9 of 312 TFLOP/s;
// H100 SXM 792.1 of 989 = 0.801), the bound an imported GEMM efficiency is checked against.
constexpr double max_measured_matmul_fraction = 0.859;

namespace {

using nlohmann::json;

using nlohmann::ordered_json;
std::string num(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

// Records what was mapped where, the origin of every field (for range errors) and warnings.
struct Mapper {
    std::vector<std::string>& mapped;
    std::vector<std::string>& warnings;
    std::string label;                            // the file being read
    std::string role;                             // "application", "system" or "execution"
    std::map<std::string, std::string> origin{};  // Config key path -> "<file>: <key path>"

    void note(const std::string& from, const std::string& to, const std::string& value, const std::string& key) {
        mapped.push_back(from + " -> " + to + " = " + value);
        origin[to] = label + ": " + key;
    }
    // "<file>: <key> = value: text" when text starts with "= ", else "<file>: <key>: text".
    void warn(const std::string& file, const std::string& key, const std::string& text) {
        std::string line = file + ": ";
        if (!key.empty()) line += key + (text.starts_with("= ") ? " " : ": ");
        warnings.push_back(line + text);
    }
    template <std::integral T>
    void int_field(ObjectReader& o, std::string_view key, T& out, const std::string& to) {
        if (o.required_int(key, out)) note(role + "." + std::string(key), to, std::to_string(out), std::string(key));
    }
    void bool_field(ObjectReader& o, std::string_view key, bool& out, const std::string& to) {
        if (o.required_bool(key, out)) note(role + "." + std::string(key), to, out ? "true" : "false", std::string(key));
    }
    // A range error of the imported Config, located at the key it came from.
    [[nodiscard]] std::string located(const FieldError& e, std::string_view fallback) const {
        const auto it = origin.find(e.path);
        if (it != origin.end()) return it->second + " -> " + e.message();
        return std::string(fallback) + ": " + e.message();
    }
};

constexpr std::array<EnumName<Recompute>, 3> recompute_names{
    {{"none", Recompute::none}, {"attn_only", Recompute::selective}, {"full", Recompute::full}}};
constexpr std::array<EnumName<Precision>, 3> datatype_names{
    {{"float16", Precision::fp16}, {"bfloat16", Precision::bf16}, {"float8", Precision::fp8}}};
// tensor_par_comm_type: all-reduce, or reduce-scatter + all-gather (sequence parallelism).
constexpr std::array<EnumName<bool>, 3> tp_comm_names{{{"ar", false}, {"p2p_rs_ag", true}, {"rs_ag", true}}};
constexpr std::array<EnumName<bool>, 3> tp_overlap_names{{{"none", false}, {"pipe", true}, {"ring", true}}};

std::string stem_of(std::string_view label) {
    std::string s = std::filesystem::path(std::string(label)).filename().string();
    for (const std::string_view ext : {".json"})
        if (s.size() > ext.size() && s.ends_with(ext)) s.resize(s.size() - ext.size());
    return s;
}

// A Calculon efficiency table: [[size, efficiency], ...]. Returns the efficiency of the bucket
// with the largest size (what large kernels reach), or nullopt after recording errors.
std::optional<double> read_efficiency_table(ObjectReader& o, std::string_view key, bool required) {
    const json* v = o.value(key);
    if (!v) {
        if (required) o.error(key, "missing (required)");
        return std::nullopt;
    }
    if (!v->is_array() || v->empty()) {
        o.error(key, "expected a non-empty array of [size, efficiency] pairs, got " + describe_json_value(*v));
        return std::nullopt;
    }
    bool good = true;
    double best_size = -1.0;
    double best = 0.0;
    for (std::size_t i = 0; i < v->size(); ++i) {
        const json& e = (*v)[i];
        const std::string path = o.path_of(key) + "[" + std::to_string(i) + "]";
        if (!e.is_array() || e.size() != 2 || !e[0].is_number() || !e[1].is_number()) {
            o.reader().error(path, "expected a [size, efficiency] pair of numbers, got " + describe_json_value(e));
            good = false;
            continue;
        }
        const double size = e[0].get<double>();
        const double eff = e[1].get<double>();
        if (!std::isfinite(size) || size < 0) {
            o.reader().error(path + "[0] = " + num(size), "must be a size >= 0");
            good = false;
        }
        if (!std::isfinite(eff) || !(eff > 0) || eff > 1) {
            o.reader().error(path + "[1] = " + num(eff), "must be an efficiency > 0 and <= 1");
            good = false;
        }
        if (good && size > best_size) {
            best_size = size;
            best = eff;
        }
    }
    if (!good) return std::nullopt;
    return best;
}

struct Throughput {
    std::optional<double> tflops;
    std::optional<double> efficiency;
    std::string key;  // the datatype key it came from
};

// "matrix" or "vector": {"float16": {"tflops": T, "gflops_efficiency": [...]}, ...}
void read_throughputs(ObjectReader& o, std::string_view key, Throughput& fp16, Throughput& fp8, Mapper& m, bool want_table) {
    const json* obj = o.value(key);
    o.required_object(key, [&](ObjectReader& x) {
        for (const auto& [dtype, unused] : obj->items()) {
            (void)unused;
            Throughput t;
            t.key = dtype;
            x.required_object(dtype, [&](ObjectReader& d) {
                double tf = 0;
                if (d.required_number("tflops", tf)) t.tflops = tf;
                t.efficiency = read_efficiency_table(d, "gflops_efficiency", true);
            });
            const std::string path = x.path_of(dtype);
            if (dtype == "float16" || (dtype == "bfloat16" && !obj->contains("float16"))) {
                fp16 = t;
            } else if (dtype == "float8") {
                fp8 = t;
            } else if (dtype == "bfloat16") {
                if (t.tflops && fp16.tflops && *t.tflops != *fp16.tflops)
                    m.warn(m.label, path + ".tflops", "differs from float16; the float16 entry is used for 16-bit work");
            } else {
                m.warn(m.label, path, "datatype not modelled by COMET (fp16/bf16 and fp8 only): dropped");
            }
        }
        (void)want_table;
    });
}

struct CalculonReader {
    Mapper m;
    Config& c;

    // ---- application --------------------------------------------------------------------
    void application(ObjectReader& o) {
        ModelSpec& md = c.model;
        m.int_field(o, "hidden", md.hidden, "model.hidden");
        m.int_field(o, "feedforward", md.ffn_hidden, "model.ffn_hidden");
        m.int_field(o, "seq_size", md.seq_len, "model.seq_len");
        m.int_field(o, "attn_heads", md.heads, "model.heads");
        m.int_field(o, "attn_size", md.head_dim, "model.head_dim");
        m.int_field(o, "num_blocks", md.layers, "model.layers");
        md.kv_heads = md.heads;
        m.origin["model.kv_heads"] = m.label + ": attn_heads";
        md.vocab = calculon_default_vocab;
        md.gated_mlp = false;
        md.tied_embeddings = true;
        md.bias = true;
        md.learned_position_embeddings = true;
        m.warn(m.label, "",
               "Calculon's application has no vocabulary: model.vocab set to " + std::to_string(calculon_default_vocab) +
                   "; a GPT-style block is assumed (multi-head attention, 4-matrix "
                   "non-gated MLP, biases, tied embeddings, learned positions)");
    }

    // ---- system ---------------------------------------------------------------------------
    void system(ObjectReader& o) {
        NodeSpec& n = c.node;
        Throughput mfp16, mfp8, vfp16, vfp8;
        read_throughputs(o, "matrix", mfp16, mfp8, m, true);
        if (o.has("matrix") && o.reader().ok() && !mfp16.tflops) o.error("matrix", "needs a \"float16\" (or \"bfloat16\") entry");
        if (mfp16.tflops) {
            n.matrix_fp16_tflops = *mfp16.tflops;
            m.note("system.matrix." + mfp16.key + ".tflops", "node.matrix_fp16_tflops", num(n.matrix_fp16_tflops),
                   "matrix." + mfp16.key + ".tflops");
        }
        if (mfp16.efficiency) {
            n.gemm.max_fraction = *mfp16.efficiency;
            n.gemm.tile_overhead_k = 0;
            m.note("system.matrix." + mfp16.key + ".gflops_efficiency", "node.gemm.max_fraction", num(n.gemm.max_fraction),
                   "matrix." + mfp16.key + ".gflops_efficiency");
            m.warn(m.label, "matrix." + mfp16.key + ".gflops_efficiency",
                   "step table approximated by its largest bucket: node.gemm.max_fraction = " + num(n.gemm.max_fraction) +
                       " with node.gemm.tile_overhead_k = 0 (small GEMMs are faster than in Calculon)");
            // Issue 40: an efficiency no GPU has been measured to reach is said at import.
            if (n.gemm.max_fraction > max_measured_matmul_fraction)
                m.warn(m.label, "matrix." + mfp16.key + ".gflops_efficiency",
                       num(n.gemm.max_fraction) + " is above the highest maximum achievable matmul fraction measured on any GPU (" +
                           num(max_measured_matmul_fraction) +
                           ", A100 SXM: 267.9 of 312 TFLOP/s; H100 SXM 0.801; docs/model.md, \"GEMM time\"): the imported node "
                           "computes faster than any measured GPU, and its MFU will be above every published run");
        }
        if (mfp8.tflops) {
            n.matrix_fp8_tflops = *mfp8.tflops;
            m.note("system.matrix.float8.tflops", "node.matrix_fp8_tflops", num(n.matrix_fp8_tflops), "matrix.float8.tflops");
            if (mfp8.efficiency && mfp16.efficiency && *mfp8.efficiency != *mfp16.efficiency)
                m.warn(m.label, "matrix.float8.gflops_efficiency",
                       "COMET uses one GEMM efficiency for all datatypes: the float16 table is used");
        }
        read_throughputs(o, "vector", vfp16, vfp8, m, false);
        if (o.has("vector") && o.reader().ok() && !vfp16.tflops) o.error("vector", "needs a \"float16\" (or \"bfloat16\") entry");
        if (vfp16.tflops) {
            n.vector_tflops = *vfp16.tflops;
            m.note("system.vector." + vfp16.key + ".tflops", "node.vector_tflops", num(n.vector_tflops), "vector." + vfp16.key + ".tflops");
            m.warn(m.label, "vector." + vfp16.key + ".gflops_efficiency",
                   "dropped: COMET runs element-wise work at the vector rate or the HBM bandwidth");
        }
        if (vfp8.tflops) m.warn(m.label, "vector.float8", "dropped: COMET has one vector rate (the 16-bit one)");

        o.required_object("mem1", [&](ObjectReader& x) {
            if (x.required_number("GiB", n.hbm_capacity_gib))
                m.note("system.mem1.GiB", "node.hbm_capacity_gib", num(n.hbm_capacity_gib), "mem1.GiB");
            if (x.required_number("GBps", n.hbm_bandwidth_gbps))
                m.note("system.mem1.GBps", "node.hbm_bandwidth_gbps", num(n.hbm_bandwidth_gbps), "mem1.GBps");
            if (const auto e = read_efficiency_table(x, "MB_efficiency", false)) {
                n.hbm_efficiency = *e;
                m.note("system.mem1.MB_efficiency", "node.hbm_efficiency", num(*e), "mem1.MB_efficiency");
                m.warn(m.label, "mem1.MB_efficiency", "step table approximated by its largest bucket: node.hbm_efficiency = " + num(*e));
            }
        });
        // Calculon's mem1.GiB is what the model may use: no runtime reserve, no allocator margin.
        c.software.hbm_reserved_gib = 0;
        c.software.hbm_allocator_margin = 0;
        o.optional_object("mem2", [&](ObjectReader& x) {
            double gib = 0, gbps = 0;
            const bool has_gib = x.required_number("GiB", gib);
            const bool has_gbps = x.required_number("GBps", gbps);
            if (x.has("MB_efficiency")) {
                (void)read_efficiency_table(x, "MB_efficiency", false);
                m.warn(m.label, "mem2.MB_efficiency", "dropped: COMET moves offloaded data at the full tier bandwidth");
            }
            if (!has_gib || !has_gbps) return;
            if (gib == 0) {
                m.note("system.mem2.GiB", "node.expanded.capacity_gib", "0 (no expanded tier)", "mem2.GiB");
                return;
            }
            n.expanded.capacity_gib = gib;
            n.expanded.bandwidth_gbps = gbps;
            n.expanded.attach = ExpandedAttach::per_accelerator;
            m.note("system.mem2.GiB", "node.expanded.capacity_gib", num(gib), "mem2.GiB");
            m.note("system.mem2.GBps", "node.expanded.bandwidth_gbps", num(gbps), "mem2.GBps");
            m.note("system.mem2", "node.expanded.attach", "per_accelerator", "mem2");
        });
        std::string mode;
        if (o.optional_string("processing_mode", mode))
            m.warn(m.label, "processing_mode",
                   "= " + quote_for_message(mode) + ": no counterpart (COMET overlaps per its own model): dropped");

        const json* nets = o.value("networks");
        if (!nets) {
            o.error("networks", "missing (required)");
        } else if (!nets->is_array() || nets->empty()) {
            o.error("networks", "expected a non-empty array of network objects, got " + describe_json_value(*nets));
        } else {
            for (std::size_t i = 0; i < nets->size(); ++i) network(o, (*nets)[i], i);
            if (nets->size() == 1) {
                n.scale_out.bandwidth_gbps = n.scale_up.bandwidth_gbps;
                n.scale_out.latency_us = n.scale_up.latency_us;
                n.scale_out.efficiency = n.scale_up.efficiency;
                m.warn(m.label, "networks", "only one network: node.scale_out copies networks[0]");
            }
        }
    }

    void network(ObjectReader& parent, const json& v, std::size_t i) {
        const std::string path = parent.path_of("networks") + "[" + std::to_string(i) + "]";
        if (!v.is_object()) {
            parent.reader().error(path, "expected a network object, got " + describe_json_value(v));
            return;
        }
        ObjectReader o(parent.reader(), v, path);
        NodeSpec& n = c.node;
        double bw = 0, eff = 0, lat = 0;
        long long size = 0;
        const bool has_bw = o.required_number("bandwidth", bw);
        const bool has_eff = o.required_number("efficiency", eff);
        const bool has_size = o.required_int("size", size);
        const bool has_lat = o.required_number("latency", lat);
        for (const std::string_view k : {"ops", "must_be_filled", "processor_usage"})
            if (o.value(k)) m.warn(m.label, path + "." + std::string(k), "no counterpart in COMET: dropped");
        if (o.value("in_network_reduction")) m.warn(m.label, path + ".in_network_reduction", "no counterpart in COMET: dropped");
        o.report_unknown_keys();
        const std::string role = "system." + path;
        if (i >= 2) {
            m.warn(m.label, path, "COMET models two network tiers: networks beyond the second are dropped");
            return;
        }
        if (has_lat && (!std::isfinite(lat) || lat < 0)) {
            o.value_error("latency", "= " + num(lat) + ": must be >= 0 seconds");
            return;
        }
        if (i == 0) {
            if (has_size) {
                if (size < 1 || size > 65536) {
                    o.value_error("size", "= " + std::to_string(size) + ": must be an integer from 1 to 65536 processors");
                } else {
                    n.scale_up.domain_size = static_cast<int>(size);
                    n.accelerators = static_cast<int>(size);
                    m.note(role + ".size", "node.scale_up.domain_size", std::to_string(size), path + ".size");
                    m.note(role + ".size", "node.accelerators", std::to_string(size), path + ".size");
                }
            }
            if (has_bw) {
                n.scale_up.bandwidth_gbps = bw;
                m.note(role + ".bandwidth", "node.scale_up.bandwidth_gbps", num(bw), path + ".bandwidth");
            }
            if (has_eff) {
                n.scale_up.efficiency = eff;
                m.note(role + ".efficiency", "node.scale_up.efficiency", num(eff), path + ".efficiency");
            }
            if (has_lat) {
                n.scale_up.latency_us = lat * 1e6;
                m.note(role + ".latency", "node.scale_up.latency_us", num(n.scale_up.latency_us), path + ".latency");
            }
        } else {
            if (has_bw) {
                n.scale_out.bandwidth_gbps = bw;
                m.note(role + ".bandwidth", "node.scale_out.bandwidth_gbps", num(bw), path + ".bandwidth");
            }
            if (has_eff) {
                n.scale_out.efficiency = eff;
                m.note(role + ".efficiency", "node.scale_out.efficiency", num(eff), path + ".efficiency");
            }
            if (has_lat) {
                n.scale_out.latency_us = lat * 1e6;
                m.note(role + ".latency", "node.scale_out.latency_us", num(n.scale_out.latency_us), path + ".latency");
            }
            if (has_size) {
                if (size < 1)
                    o.value_error("size", "= " + std::to_string(size) + ": must be an integer >= 1");
                else
                    m.warn(m.label, path + ".size", "dropped: the scale-out network spans the cluster");
            }
        }
    }

    // ---- execution --------------------------------------------------------------------------
    void execution(ObjectReader& o, int domain) {
        Strategy& s = c.strategy;
        TrainingSpec& t = c.training;
        long long procs = 0;
        const bool has_procs = o.required_int("num_procs", procs);
        m.int_field(o, "tensor_par", s.tp, "strategy.tp");
        m.int_field(o, "pipeline_par", s.pp, "strategy.pp");
        m.int_field(o, "data_par", s.dp, "strategy.dp");
        for (const std::string_view k : {"tensor_par_net", "pipeline_par_net", "data_par_net"})
            if (const json* v = o.value(k))
                m.warn(m.label, std::string(k),
                       "= " + describe_json_value(*v) + ": dropped (COMET places ranks TP-fastest in the scale-up domain)");
        if (o.required_int("batch_size", t.global_batch))
            m.note("execution.batch_size", "training.global_batch", std::to_string(t.global_batch), "batch_size");
        m.int_field(o, "microbatch_size", s.microbatch, "strategy.microbatch");
        if (o.required_enum("datatype", t.precision, std::span<const EnumName<Precision>>(datatype_names)))
            m.note("execution.datatype", "training.precision", std::string(to_string(t.precision)), "datatype");
        bool flag = false;
        if (o.optional_bool("fused_activation", flag))
            m.warn(
                m.label, "fused_activation",
                std::string("= ") + (flag ? "true" : "false") + ": no counterpart (COMET's element-wise traffic model is fixed): dropped");
        std::string text;
        if (o.optional_string("attention_type", text))
            m.warn(m.label, "attention_type",
                   "= " + quote_for_message(text) + ": dropped (model.kv_heads = model.heads, multi-head attention)");
        if (o.required_enum("activation_recompute", s.recompute, std::span<const EnumName<Recompute>>(recompute_names)))
            m.note("execution.activation_recompute", "strategy.recompute", std::string(to_string(s.recompute)), "activation_recompute");
        m.int_field(o, "pipeline_interleaving", s.interleave, "strategy.interleave");
        if (o.required_bool("optimizer_sharding", flag)) {
            s.zero_stage = flag ? 1 : 0;
            m.note("execution.optimizer_sharding", "strategy.zero_stage", std::to_string(s.zero_stage), "optimizer_sharding");
        }
        if (o.required_enum("tensor_par_comm_type", s.sequence_parallel, std::span<const EnumName<bool>>(tp_comm_names)))
            m.note("execution.tensor_par_comm_type", "strategy.sequence_parallel", s.sequence_parallel ? "true" : "false",
                   "tensor_par_comm_type");
        if (o.optional_enum("tensor_par_overlap", s.tp_overlap, std::span<const EnumName<bool>>(tp_overlap_names)))
            m.note("execution.tensor_par_overlap", "strategy.tp_overlap", s.tp_overlap ? "true" : "false", "tensor_par_overlap");
        if (o.optional_bool("seq_par_ag_redo", flag))
            m.warn(m.label, "seq_par_ag_redo", std::string("= ") + (flag ? "true" : "false") + ": no counterpart: dropped");
        m.bool_field(o, "data_par_overlap", s.dp_overlap, "strategy.dp_overlap");
        m.bool_field(o, "weight_offload", s.offload_weights, "strategy.offload_weights");
        m.bool_field(o, "activations_offload", s.offload_activations, "strategy.offload_activations");
        m.bool_field(o, "optimizer_offload", s.offload_optimizer, "strategy.offload_optimizer");
        if (o.optional_bool("training", flag))
            m.warn(m.label, "training",
                   flag ? "no counterpart (COMET models training only): dropped"
                        : "= false: COMET models training only; imported as a training run");

        if (!has_procs) return;
        if (procs < 1) {
            o.value_error("num_procs", "= " + std::to_string(procs) + ": must be an integer >= 1");
            return;
        }
        const long long product = static_cast<long long>(s.tp) * s.pp * s.dp;
        if (o.reader().ok() && s.tp >= 1 && s.pp >= 1 && s.dp >= 1 && product != procs) {
            o.value_error("num_procs",
                          "= " + std::to_string(procs) + ": must equal tensor_par * pipeline_par * data_par = " + std::to_string(product));
            return;
        }
        if (domain < 1) return;
        if (procs < domain) {
            c.node.accelerators = static_cast<int>(procs);
            c.node.scale_up.domain_size = static_cast<int>(procs);
            m.warn(m.label, "num_procs",
                   "= " + std::to_string(procs) + " is fewer than networks[0].size (" + std::to_string(domain) + "): one node of " +
                       std::to_string(procs) + " accelerators");
        } else if (procs % domain != 0) {
            m.warn(m.label, "num_procs",
                   "= " + std::to_string(procs) + " is not a multiple of networks[0].size (" + std::to_string(domain) +
                       "): cluster.nodes rounded up");
        }
        const long long per_node = c.node.accelerators;
        const long long nodes = (procs + per_node - 1) / per_node;
        c.cluster.nodes = static_cast<int>(std::min<long long>(nodes, std::numeric_limits<int>::max()));
        m.note("execution.num_procs", "cluster.nodes",
               std::to_string(nodes) + " (ceil(" + std::to_string(procs) + " / " + std::to_string(per_node) + "))", "num_procs");
    }
};

struct Source {
    std::string_view text;
    std::string_view label;
};

}  // namespace

Loaded<ImportResult> import_calculon_text(std::string_view application_json, std::string_view application_label,
                                          std::string_view system_json, std::string_view system_label, std::string_view execution_json,
                                          std::string_view execution_label) {
    Loaded<ImportResult> out;
    try {
        ImportResult res;
        Config& c = res.scenario.config;
        c = Config{};
        c.training = TrainingSpec{};
        c.strategy = Strategy{};
        CalculonReader cr{Mapper{res.mapped, res.warnings, {}, {}, {}}, c};

        const auto run = [&](Source src, std::string_view role, const JsonReader::Section& read) {
            JsonReader r{std::string(src.label)};
            cr.m.label = std::string(src.label);
            cr.m.role = std::string(role);
            if (const auto doc = r.parse(src.text)) r.object(*doc, read);
            for (auto& e : r.take_errors()) out.errors.push_back(std::move(e));
        };
        run({application_json, application_label}, "application", [&](ObjectReader& o) { cr.application(o); });
        run({system_json, system_label}, "system", [&](ObjectReader& o) { cr.system(o); });
        const int domain = c.node.scale_up.domain_size;
        const bool system_ok = out.errors.empty();
        run({execution_json, execution_label}, "execution", [&](ObjectReader& o) { cr.execution(o, system_ok ? domain : 0); });
        if (!out.errors.empty()) return out;

        for (const FieldError& e : check_config(c)) out.errors.push_back(cr.m.located(e, execution_label));
        if (!out.errors.empty()) return out;

        Scenario& s = res.scenario;
        const std::string app = stem_of(application_label), sys = stem_of(system_label), exe = stem_of(execution_label);
        s.name = app + " on " + sys + " (" + exe + ")";
        s.description = "Imported from Calculon files " + std::string(application_label) + ", " + std::string(system_label) + " and " +
                        std::string(execution_label) + ".";
        s.model_info = {app, "Calculon application " + std::string(application_label)};
        s.node_info = {sys, "Calculon system " + std::string(system_label)};
        out.value = std::move(res);
    } catch (const std::exception& e) {  // allocation failure on hostile input
        out.errors.push_back(std::string(application_label) + ": import failed: " + e.what());
        out.value.reset();
    }
    return out;
}

Loaded<ImportResult> import_calculon(const std::filesystem::path& application, const std::filesystem::path& system,
                                     const std::filesystem::path& execution) {
    Loaded<ImportResult> out;
    std::array<std::string, 3> texts;
    const std::array<const std::filesystem::path*, 3> files{&application, &system, &execution};
    for (std::size_t i = 0; i < 3; ++i)
        if (const std::string problem = read_json_file(*files[i], texts[i]); !problem.empty())
            out.errors.push_back(files[i]->string() + ": " + problem);
    if (!out.errors.empty()) return out;
    return import_calculon_text(texts[0], application.string(), texts[1], system.string(), texts[2], execution.string());
}

// ---- export ----------------------------------------------------------------------------------

namespace {

void add(std::vector<std::string>* w, std::string text) {
    if (w) w->push_back(std::move(text));
}

ordered_json table(double efficiency) { return ordered_json::array({ordered_json::array({0, efficiency})}); }

std::string dump(const ordered_json& j) { return j.dump(2) + "\n"; }

}  // namespace

std::string export_calculon_application(const Scenario& s, std::vector<std::string>* w) {
    const ModelSpec& m = s.config.model;
    ordered_json j;
    j["hidden"] = m.hidden;
    j["feedforward"] = m.ffn_hidden;
    j["seq_size"] = m.seq_len;
    j["attn_heads"] = m.heads;
    j["attn_size"] = m.head_dim;
    j["num_blocks"] = m.layers;
    add(w, "model.vocab = " + std::to_string(m.vocab) + ": Calculon's application has no vocabulary: dropped");
    if (m.kv_heads != m.heads)
        add(w, "model.kv_heads = " + std::to_string(m.kv_heads) +
                   ": Calculon models multi-head attention (kv_heads = heads): K/V projections are overestimated");
    if (m.gated_mlp) add(w, "model.gated_mlp = true: Calculon's MLP has two matrices: a gated MLP's third matrix is dropped");
    if (!m.bias) add(w, "model.bias = false: Calculon models a GPT-style block with biases");
    if (!m.tied_embeddings) add(w, "model.tied_embeddings = false: not expressible in Calculon");
    if (!m.learned_position_embeddings) add(w, "model.learned_position_embeddings = false: not expressible in Calculon");
    if (m.is_moe())
        add(w, "model.experts = " + std::to_string(m.experts) +
                   ": Calculon has no mixture of experts: exported as a dense model with feedforward = model.ffn_hidden (" +
                   std::to_string(m.ffn_hidden) + "); the routed experts, the router and the all-to-alls are dropped");
    if (m.is_mla())
        add(w, "model.kv_lora_rank = " + std::to_string(m.kv_lora_rank) +
                   ": Calculon has no multi-head latent attention: exported as multi-head attention of attn_size heads");
    if (m.sliding_window > 0)
        add(w, "model.sliding_window = " + std::to_string(m.sliding_window) +
                   ": Calculon has no sliding-window layers: every layer exported with full attention");
    if (m.mtp_layers > 0)
        add(w, "model.mtp_layers = " + std::to_string(m.mtp_layers) + ": Calculon has no multi-token prediction: dropped");
    if (m.rope_mscale != 1.0 && !m.learned_position_embeddings && !m.is_mla())
        add(w, "model.rope_mscale = " + format_printf("%.6g", m.rope_mscale) +
                   ": Calculon prices no rotary embedding: the unfused RoPE passes are dropped");
    if (m.glu_clamp > 0 && m.is_moe())
        add(w, "model.glu_clamp = " + format_printf("%.6g", m.glu_clamp) + ": Calculon has no activation clamp: dropped");
    return dump(j);
}

std::string export_calculon_system(const Scenario& s, std::vector<std::string>* w) {
    const NodeSpec& n = s.config.node;
    ordered_json j;
    ordered_json matrix;
    matrix["float16"] = {{"tflops", n.matrix_fp16_tflops}, {"gflops_efficiency", table(n.gemm.max_fraction)}};
    if (s.config.training.precision == Precision::bf16)
        matrix["bfloat16"] = {{"tflops", n.matrix_fp16_tflops}, {"gflops_efficiency", table(n.gemm.max_fraction)}};
    if (n.matrix_fp8_tflops > 0) matrix["float8"] = {{"tflops", n.matrix_fp8_tflops}, {"gflops_efficiency", table(n.gemm.max_fraction)}};
    j["matrix"] = matrix;
    ordered_json vec;
    vec["float16"] = {{"tflops", n.vector_tflops}, {"gflops_efficiency", table(1.0)}};
    if (s.config.training.precision == Precision::bf16) vec["bfloat16"] = {{"tflops", n.vector_tflops}, {"gflops_efficiency", table(1.0)}};
    j["vector"] = vec;
    j["mem1"] = {{"GiB", n.hbm_capacity_gib}, {"GBps", n.hbm_bandwidth_gbps}, {"MB_efficiency", table(n.hbm_efficiency)}};
    double mem2_gib = n.expanded.capacity_gib;
    if (n.expanded.capacity_gib > 0) {
        if (n.expanded.attach == ExpandedAttach::per_node) {
            mem2_gib /= n.accelerators;
            add(w,
                "node.expanded.attach = per_node: Calculon's mem2 is per processor: capacity divided by node.accelerators "
                "(bandwidth kept per processor)");
        } else if (n.expanded.attach == ExpandedAttach::pooled) {
            mem2_gib /= static_cast<double>(n.accelerators) * n.expanded.pool_nodes;
            add(w,
                "node.expanded.attach = pooled: Calculon's mem2 is per processor: capacity divided among the pool's "
                "accelerators (bandwidth kept per processor)");
        }
        if (n.expanded.latency_us > 0) add(w, "node.expanded.latency_us = " + num(n.expanded.latency_us) + ": not expressible in Calculon");
    }
    j["mem2"] = {{"GiB", mem2_gib}, {"GBps", n.expanded.capacity_gib > 0 ? n.expanded.bandwidth_gbps : 0.0}, {"MB_efficiency", table(1.0)}};
    j["processing_mode"] = "no_overlap";
    const auto ops = [](bool scale_up) {
        ordered_json o;
        o["p2p"] = ordered_json::array({1.0, nullptr});
        o["reduce_scatter"] = ordered_json::array({1.0, scale_up ? -1 : 0});
        o["all_gather"] = ordered_json::array({1.0, scale_up ? -1 : 0});
        o["all_reduce"] = ordered_json::array({2.0, scale_up ? -1 : 0});
        return o;
    };
    ordered_json up;
    up["bandwidth"] = n.scale_up.bandwidth_gbps;
    up["efficiency"] = n.scale_up.efficiency;
    up["size"] = n.scale_up.domain_size;
    up["latency"] = n.scale_up.latency_us * 1e-6;
    up["ops"] = ops(true);
    up["must_be_filled"] = true;
    up["processor_usage"] = 0.0;
    ordered_json out;
    out["bandwidth"] = n.scale_out.bandwidth_gbps;
    out["efficiency"] = n.scale_out.efficiency;
    out["size"] = std::max<long long>(static_cast<long long>(n.accelerators) * s.config.cluster.nodes, n.scale_up.domain_size);
    out["latency"] = n.scale_out.latency_us * 1e-6;
    out["ops"] = ops(false);
    out["must_be_filled"] = false;
    out["processor_usage"] = 0.0;
    j["networks"] = ordered_json::array({up, out});
    if (n.accelerators != n.scale_up.domain_size)
        add(w, "node.accelerators = " + std::to_string(n.accelerators) + " differs from node.scale_up.domain_size = " +
                   std::to_string(n.scale_up.domain_size) + ": Calculon has no node, networks[0].size is the domain");
    if (n.gemm.tile_overhead_k > 0)
        add(w, "node.gemm.tile_overhead_k = " + num(n.gemm.tile_overhead_k) +
                   ": not expressible: gflops_efficiency is one bucket at node.gemm.max_fraction");
    if (n.gemm.sms > 0)
        add(w, "node.gemm.sms = " + std::to_string(n.gemm.sms) +
                   ": not expressible: Calculon has no tile waves (its efficiency buckets are by GEMM size)");
    if (n.gemm.launch_overhead_us > 0)
        add(w, "node.gemm.launch_overhead_us = " + num(n.gemm.launch_overhead_us) + ": not expressible in Calculon");
    const SoftwareSpec& sw = s.config.software;
    if (sw.hbm_reserved_gib > 0)
        add(w, "software.hbm_reserved_gib = " + num(sw.hbm_reserved_gib) + ": not expressible: mem1.GiB is the whole HBM capacity");
    if (n.scale_out.rail_only)
        add(w, "node.scale_out.rail_only = true: not expressible: Calculon's networks connect every processor of a tier");
    if (n.scale_out.leaf_domains > 0)
        add(w, "node.scale_out.leaf_domains = " + num(n.scale_out.leaf_domains) +
                   ": not expressible: Calculon's networks are flat tiers (the spine's oversubscription and latency are dropped)");
    if (n.matrix_fp4_tflops > 0)
        add(w, "node.matrix_fp4_tflops = " + num(n.matrix_fp4_tflops) + ": Calculon has no 4-bit matrix unit: dropped");
    if (sw.hbm_allocator_margin > 0)
        add(w, "software.hbm_allocator_margin = " + num(sw.hbm_allocator_margin) + ": not expressible: mem1.GiB is the whole HBM capacity");
    add(w, "networks[].ops, must_be_filled, processor_usage: Calculon-only parameters written with neutral values");
    return dump(j);
}

std::string export_calculon_execution(const Scenario& s, std::vector<std::string>* w) {
    const Config& c = s.config;
    const Strategy& st = c.strategy;
    const TrainingSpec& t = c.training;
    const long long procs = static_cast<long long>(st.tp) * st.pp * st.dp;
    ordered_json j;
    j["num_procs"] = procs;
    j["tensor_par"] = st.tp;
    j["pipeline_par"] = st.pp;
    j["data_par"] = st.dp;
    const int domain = c.node.scale_up.domain_size;
    j["tensor_par_net"] = st.tp <= domain ? 0 : 1;
    j["pipeline_par_net"] = static_cast<long long>(st.tp) * st.dp * st.pp <= domain ? 0 : 1;
    j["data_par_net"] = static_cast<long long>(st.tp) * st.dp <= domain ? 0 : 1;
    j["batch_size"] = t.global_batch;
    j["microbatch_size"] = st.microbatch;
    j["datatype"] = t.precision == Precision::fp16 ? "float16" : t.precision == Precision::bf16 ? "bfloat16" : "float8";
    j["fused_activation"] = true;
    j["attention_type"] = "multihead";
    j["activation_recompute"] = st.recompute == Recompute::full ? "full" : st.recompute == Recompute::selective ? "attn_only" : "none";
    j["pipeline_interleaving"] = st.interleave;
    j["optimizer_sharding"] = st.zero_stage >= 1;
    j["tensor_par_comm_type"] = st.sequence_parallel ? "rs_ag" : "ar";
    j["tensor_par_overlap"] = st.tp_overlap ? "ring" : "none";
    j["seq_par_ag_redo"] = false;
    j["data_par_overlap"] = st.dp_overlap;
    j["weight_offload"] = st.offload_weights;
    j["activations_offload"] = st.offload_activations;
    j["optimizer_offload"] = st.offload_optimizer;
    j["training"] = true;
    const long long cluster = static_cast<long long>(c.node.accelerators) * c.cluster.nodes;
    if (procs != cluster)
        add(w, "strategy: tp * pp * dp = " + std::to_string(procs) +
                   " differs from cluster.nodes * node.accelerators = " + std::to_string(cluster) + ": num_procs is tp * pp * dp");
    if (st.zero_stage >= 2)
        add(w, "strategy.zero_stage = " + std::to_string(st.zero_stage) +
                   ": Calculon shards the optimizer only (ZeRO-1): exported as optimizer_sharding = true");
    if (!st.pp_scatter_gather) add(w, "strategy.pp_scatter_gather = false: not expressible in Calculon");
    if (st.cp > 1)
        add(w, "strategy.cp = " + std::to_string(st.cp) + ": Calculon has no context parallelism: dropped (num_procs is tp * pp * dp)");
    if (st.ep > 1 || st.etp > 1)
        add(w, "strategy.ep = " + std::to_string(st.ep) + ", etp = " + std::to_string(st.etp) +
                   ": Calculon has no expert parallelism: dropped");
    if (st.pp > 1 && st.interleave > 1 && st.pp_overlap)
        add(w,
            "strategy.pp_overlap = true: Calculon has no switch for pipeline transfers behind the next chunk: "
            "its own pipeline communication model applies");
    if (t.optimizer != Optimizer::adam) add(w, "training.optimizer = sgd: Calculon models Adam");
    if (is_fp4(t.precision)) add(w, "training.precision = fp4: Calculon has no 4-bit datatype: exported as float8");
    if (t.grad_reduce != GradDtype::fp32) add(w, "training.grad_reduce = bf16: not expressible in Calculon");
    if (t.attention == AttentionKernel::fused)
        add(w, "training.attention = fused: Calculon has no fused (FlashAttention) kernel: exported unfused");
    if (!t.dropout) add(w, "training.dropout = false: not expressible in Calculon");
    if (t.cuda_graphs) add(w, "training.cuda_graphs = true: Calculon has no host issue time to remove");
    // The software's host time per op (and what its CUDA graphs capture) has no Calculon field:
    // the exported run keeps ahead of its host.
    if (c.software.host_op_us > 0 && !captures_whole_step(t, c.software))
        add(w, "software.host_op_us = " + format_printf("%g", c.software.host_op_us) +
                   (c.software.graph_scope == GraphScope::dense ? " (dense layers as CUDA graphs)" : "") +
                   ": Calculon has no host issue time: the exported run never waits for its host");
    return dump(j);
}

}  // namespace comet
