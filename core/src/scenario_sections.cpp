#include "scenario_sections.hpp"

#include <cmath>
#include <vector>

#include "comet/check.hpp"

namespace comet {
namespace sections {

using nlohmann::ordered_json;

// ---- reading -----------------------------------------------------------------------------

std::string allowed_by_rule(std::string_view path) {
    for (const FieldRule& r : field_rules())
        if (path == r.path) return r.allowed;
    return {};
}

static void derive_head_dim(ObjectReader& o, ModelSpec& m) {
    if (m.heads <= 0) return;  // reported by the range check
    if (m.hidden % m.heads != 0) {
        o.error("head_dim", "missing; required because model.hidden (" + std::to_string(m.hidden) +
                                ") is not divisible by model.heads (" + std::to_string(m.heads) + ")");
        return;
    }
    m.head_dim = m.hidden / m.heads;
}

void read_model(ObjectReader& o, ModelSpec& m, Provenance& info, Derived& derived) {
    o.optional_string("name", info.name);
    o.optional_string("source", info.source);
    o.required_int("layers", m.layers);
    const bool hidden_ok = o.required_int("hidden", m.hidden);
    const bool heads_ok = o.required_int("heads", m.heads);
    if (!o.optional_int("kv_heads", m.kv_heads) && !o.has("kv_heads")) {
        m.kv_heads = m.heads;
        derived.kv_heads = true;
    }
    if (!o.optional_int("head_dim", m.head_dim) && !o.has("head_dim")) {
        derived.head_dim = true;
        if (hidden_ok && heads_ok) derive_head_dim(o, m);
    }
    o.required_int("ffn_hidden", m.ffn_hidden);
    o.optional_bool("gated_mlp", m.gated_mlp);
    o.required_int("seq_len", m.seq_len);
    o.required_int("vocab", m.vocab);
    o.optional_bool("tied_embeddings", m.tied_embeddings);
    o.optional_bool("bias", m.bias);
    o.optional_bool("learned_position_embeddings", m.learned_position_embeddings);
    o.optional_int("experts", m.experts);
    o.optional_int("experts_per_token", m.experts_per_token);
    o.optional_int("expert_ffn_hidden", m.expert_ffn_hidden);
    o.optional_int("shared_experts", m.shared_experts);
    o.optional_int("dense_layers", m.dense_layers);
    o.optional_int("moe_layer_interval", m.moe_layer_interval);
    o.optional_number("capacity_factor", m.capacity_factor);
    o.optional_int("q_lora_rank", m.q_lora_rank);
    o.optional_int("kv_lora_rank", m.kv_lora_rank);
    o.optional_int("qk_nope_head_dim", m.qk_nope_head_dim);
    o.optional_int("qk_rope_head_dim", m.qk_rope_head_dim);
    o.optional_int("v_head_dim", m.v_head_dim);
    o.optional_int("sliding_window", m.sliding_window);
    o.optional_int("full_attention_interval", m.full_attention_interval);
    o.optional_int("mtp_layers", m.mtp_layers);
    o.optional_number("rope_mscale", m.rope_mscale);
    o.optional_number("glu_clamp", m.glu_clamp);
}

static void read_expanded(ObjectReader& o, ExpandedMemory& e) {
    o.optional_number("capacity_gib", e.capacity_gib);
    o.optional_number("bandwidth_gbps", e.bandwidth_gbps);
    o.optional_number("latency_us", e.latency_us);
    o.optional_enum("attach", e.attach, attach_names);
    o.optional_int("pool_nodes", e.pool_nodes);
}

void read_node(ObjectReader& o, NodeSpec& n, Provenance& info) {
    o.optional_string("name", info.name);
    o.optional_string("source", info.source);
    o.required_int("accelerators", n.accelerators);
    o.required_number("matrix_fp16_tflops", n.matrix_fp16_tflops);
    o.optional_number("matrix_fp8_tflops", n.matrix_fp8_tflops);
    o.optional_number("matrix_fp4_tflops", n.matrix_fp4_tflops);
    o.required_number("vector_tflops", n.vector_tflops);
    o.optional_object("gemm", [&](ObjectReader& g) {
        g.optional_number("max_fraction", n.gemm.max_fraction);
        g.optional_number("tile_overhead_k", n.gemm.tile_overhead_k);
        g.optional_number("launch_overhead_us", n.gemm.launch_overhead_us);
        g.optional_number("fp8_max_fraction", n.gemm.fp8_max_fraction);
        g.optional_number("fp4_max_fraction", n.gemm.fp4_max_fraction);
    });
    o.optional_object("attention", [&](ObjectReader& a) {
        a.optional_number("max_fraction", n.attention.max_fraction);
        a.optional_number("softmax_head_dim", n.attention.softmax_head_dim);
        a.optional_number("backward_efficiency", n.attention.backward_efficiency);
    });
    o.required_number("hbm_capacity_gib", n.hbm_capacity_gib);
    o.required_number("hbm_bandwidth_gbps", n.hbm_bandwidth_gbps);
    o.optional_number("hbm_efficiency", n.hbm_efficiency);
    o.optional_number("hbm_reserved_gib", n.hbm_reserved_gib);
    o.optional_number("hbm_allocator_margin", n.hbm_allocator_margin);
    o.optional_object("expanded", [&](ObjectReader& e) { read_expanded(e, n.expanded); });
    o.required_object("scale_up", [&](ObjectReader& s) {
        s.required_int("domain_size", n.scale_up.domain_size);
        s.required_number("bandwidth_gbps", n.scale_up.bandwidth_gbps);
        s.optional_number("latency_us", n.scale_up.latency_us);
        s.optional_number("efficiency", n.scale_up.efficiency);
    });
    o.required_object("scale_out", [&](ObjectReader& s) {
        s.required_number("bandwidth_gbps", n.scale_out.bandwidth_gbps);
        s.optional_number("latency_us", n.scale_out.latency_us);
        s.optional_number("efficiency", n.scale_out.efficiency);
        s.optional_int("leaf_domains", n.scale_out.leaf_domains);
        s.optional_number("oversubscription", n.scale_out.oversubscription);
        s.optional_number("spine_latency_us", n.scale_out.spine_latency_us);
        s.optional_bool("rail_only", n.scale_out.rail_only);
    });
    o.optional_number("power_kw", n.power_kw);
    o.optional_number("host_op_us", n.host_op_us);
}

void read_training(ObjectReader& o, TrainingSpec& t) {
    o.required_int("global_batch", t.global_batch);
    o.optional_enum("precision", t.precision, precision_names);
    o.optional_enum("optimizer", t.optimizer, optimizer_names);
    o.optional_enum("grad_reduce", t.grad_reduce, grad_dtype_names);
    o.optional_enum("attention", t.attention, attention_names);
    o.optional_bool("dropout", t.dropout);
    o.optional_bool("cuda_graphs", t.cuda_graphs);
}

void read_strategy(ObjectReader& o, Strategy& s, Workload w) {
    const bool transformer = w == Workload::transformer;
    (transformer ? o.required_int("tp", s.tp) : o.optional_int("tp", s.tp));
    (transformer ? o.required_int("pp", s.pp) : o.optional_int("pp", s.pp));
    o.required_int("dp", s.dp);
    (transformer ? o.required_int("microbatch", s.microbatch) : o.optional_int("microbatch", s.microbatch));
    o.optional_int("interleave", s.interleave);
    o.optional_enum("recompute", s.recompute, recompute_names);
    o.optional_bool("sequence_parallel", s.sequence_parallel);
    o.optional_int("zero_stage", s.zero_stage);
    o.optional_bool("offload_optimizer", s.offload_optimizer);
    o.optional_bool("offload_weights", s.offload_weights);
    o.optional_bool("offload_activations", s.offload_activations);
    o.optional_bool("dp_overlap", s.dp_overlap);
    o.optional_bool("tp_overlap", s.tp_overlap);
    o.optional_bool("pp_scatter_gather", s.pp_scatter_gather);
    o.optional_bool("pp_overlap", s.pp_overlap);
    o.optional_int("cp", s.cp);
    o.optional_int("ep", s.ep);
    o.optional_int("etp", s.etp);
    o.optional_number("ep_overlap", s.ep_overlap);
    o.optional_enum("ep_dispatch", s.ep_dispatch, ep_dispatch_names);
    o.optional_int("zero_shard", s.zero_shard);
    o.optional_int("pipeline_first_layers", s.pipeline_first_layers);
    o.optional_int("pipeline_last_layers", s.pipeline_last_layers);
    o.optional_bool("embedding_in_pipeline_split", s.embedding_in_pipeline_split);
    o.optional_bool("loss_in_pipeline_split", s.loss_in_pipeline_split);
    o.optional_int("recompute_layers", s.recompute_layers);
    o.optional_enum("emb_sharding", s.emb_sharding, emb_sharding_names);
    o.optional_enum("emb_placement", s.emb_placement, emb_placement_names);
    o.optional_number("emb_cache_fraction", s.emb_cache_fraction);
    o.optional_number("emb_cache_hit_rate", s.emb_cache_hit_rate);
    o.optional_enum("emb_state", s.emb_state, emb_state_names);
}

namespace {
// "an empty list", "a list of 33 items", or the value as describe_json_value() says it.
std::string list_text(const nlohmann::json& v) {
    if (!v.is_array()) return describe_json_value(v);
    return v.empty() ? "an empty list" : "a list of " + std::to_string(v.size()) + (v.size() == 1 ? " item" : " items");
}

// A list of integer widths ("bottom_mlp": [512, 256, 128]) into `widths`; false after an error.
bool read_widths(ObjectReader& o, std::string_view key, std::array<int, DlrmSpec::max_mlp_layers>& widths, int& layers, bool required) {
    const nlohmann::json* list = o.value(key);
    if (list == nullptr) {
        if (required) o.error(key, "missing (a list of 1 to 8 layer widths)");
        return !required;
    }
    const int max = DlrmSpec::max_mlp_layers;
    if (!list->is_array() || static_cast<int>(list->size()) > max || (required && list->empty())) {
        o.reader().error(o.path_of(key) + " = " + list_text(*list),
                         std::string("must be a list of ") + (required ? "1" : "0") + " to 8 layer widths");
        return false;
    }
    bool ok = true;
    for (std::size_t i = 0; i < list->size(); ++i) {
        const nlohmann::json& v = (*list)[i];
        const std::string path = o.path_of(key) + "[" + std::to_string(i) + "]";
        const bool integral = v.is_number_integer() ||
                              (v.is_number_float() && std::isfinite(v.get<double>()) && std::floor(v.get<double>()) == v.get<double>());
        if (!integral || std::abs(v.get<double>()) > 2147483647.0) {
            o.reader().error(path + " = " + describe_json_value(v), "must be an integer width from 1 to 1e7");
            ok = false;
            continue;
        }
        widths[i] = static_cast<int>(v.get<double>());
    }
    if (ok) layers = static_cast<int>(list->size());
    return ok;
}

// One entry of "tables": {"count", "rows", "dim", "pooling"}; "rows" may be {"from", "to"}: the
// group's tables spread geometrically over that range, read as up to 8 groups of rows at the
// geometric midpoints of equal shares of the range.
void read_table_group(ObjectReader& t, std::vector<EmbeddingTableGroup>& out) {
    EmbeddingTableGroup g;
    g.count = 1;
    t.optional_int("count", g.count);
    t.required_int("dim", g.dim);
    t.optional_number("pooling", g.pooling);
    const nlohmann::json* rows = t.value("rows");
    if (rows == nullptr) {
        t.error("rows", "missing (a number of rows, or {\"from\": ..., \"to\": ...})");
        return;
    }
    if (!rows->is_object()) {
        if (t.optional_number("rows", g.rows)) out.push_back(g);
        return;
    }
    double from = 0, to = 0;
    bool read = false;
    t.required_object("rows", [&](ObjectReader& r) {
        const bool has_from = r.required_number("from", from);  // both read, so both are reported
        const bool has_to = r.required_number("to", to);
        read = has_from && has_to;
    });
    if (!read) return;
    if (!(from >= 1 && to >= from && to <= 1e13)) {
        t.reader().error(t.path_of("rows") + " = {from " + std::to_string(from) + ", to " + std::to_string(to) + "}",
                         "must spread from at least 1 row to at most 1e13, with to >= from");
        return;
    }
    if (g.count < 1) {  // reported by the range check on the group
        g.rows = from;
        out.push_back(g);
        return;
    }
    const int parts = std::min(g.count, 8);
    for (int i = 0; i < parts; ++i) {
        EmbeddingTableGroup part = g;
        part.count = g.count / parts + (i < g.count % parts ? 1 : 0);
        part.rows = std::round(from * std::pow(to / from, (i + 0.5) / parts));
        out.push_back(part);
    }
}
}  // namespace

void read_dlrm(ObjectReader& o, DlrmSpec& d, Provenance& info) {
    o.optional_string("name", info.name);
    o.optional_string("source", info.source);
    const nlohmann::json* tables = o.value("tables");
    if (tables == nullptr) {
        o.error("tables", "missing (a list of 1 to 32 table groups: {\"count\", \"rows\", \"dim\", \"pooling\"})");
    } else if (!tables->is_array() || tables->empty() || tables->size() > static_cast<std::size_t>(DlrmSpec::max_table_groups)) {
        o.reader().error(o.path_of("tables") + " = " + list_text(*tables), "must be a list of 1 to 32 table groups");
    } else {
        std::vector<EmbeddingTableGroup> groups;
        for (std::size_t i = 0; i < tables->size(); ++i) {
            const nlohmann::json& item = (*tables)[i];
            const std::string path = o.path_of("tables") + "[" + std::to_string(i) + "]";
            if (!item.is_object()) {
                o.reader().error(path,
                                 "expected a table group {\"count\", \"rows\", \"dim\", \"pooling\"}, got " + describe_json_value(item));
                continue;
            }
            ObjectReader reader(o.reader(), item, path);
            read_table_group(reader, groups);
            reader.report_unknown_keys();
        }
        if (groups.size() > static_cast<std::size_t>(DlrmSpec::max_table_groups)) {
            o.reader().error(o.path_of("tables"), std::to_string(groups.size()) +
                                                      " table groups after spreading the row ranges; at most 32 (give fewer groups or "
                                                      "fewer tables per range)");
        } else {
            d.table_groups = static_cast<int>(groups.size());
            for (std::size_t i = 0; i < groups.size(); ++i) d.tables[i] = groups[i];
        }
    }
    o.optional_int("dense_features", d.dense_features);
    read_widths(o, "bottom_mlp", d.bottom_mlp, d.bottom_layers, false);
    read_widths(o, "top_mlp", d.top_mlp, d.top_layers, true);
    o.optional_enum("interaction", d.interaction, interaction_names);
    o.optional_int("cross_layers", d.cross_layers);
    o.optional_int("cross_rank", d.cross_rank);
    o.optional_enum("embedding_dtype", d.embedding_dtype, embedding_dtype_names);
    o.optional_enum("table_optimizer", d.table_optimizer, embedding_optimizer_names);
    o.optional_number("unique_rows_fraction", d.unique_rows_fraction);
}

ordered_json dlrm_json(const DlrmSpec& d, const Provenance& info) {
    ordered_json j;
    j["name"] = info.name;
    j["source"] = info.source;
    j["tables"] = ordered_json::array();
    for (int g = 0; g < d.table_groups && g < DlrmSpec::max_table_groups; ++g) {
        const EmbeddingTableGroup& t = d.tables[static_cast<std::size_t>(g)];
        ordered_json tj;
        tj["count"] = t.count;
        tj["rows"] = t.rows;
        tj["dim"] = t.dim;
        tj["pooling"] = t.pooling;
        j["tables"].push_back(std::move(tj));
    }
    j["dense_features"] = d.dense_features;
    j["bottom_mlp"] = ordered_json::array();
    for (int i = 0; i < d.bottom_layers && i < DlrmSpec::max_mlp_layers; ++i)
        j["bottom_mlp"].push_back(d.bottom_mlp[static_cast<std::size_t>(i)]);
    j["top_mlp"] = ordered_json::array();
    for (int i = 0; i < d.top_layers && i < DlrmSpec::max_mlp_layers; ++i) j["top_mlp"].push_back(d.top_mlp[static_cast<std::size_t>(i)]);
    j["interaction"] = std::string(name_of(interaction_names, d.interaction));
    if (d.interaction == DlrmInteraction::dcn) {
        j["cross_layers"] = d.cross_layers;
        j["cross_rank"] = d.cross_rank;
    }
    j["embedding_dtype"] = std::string(name_of(embedding_dtype_names, d.embedding_dtype));
    j["table_optimizer"] = std::string(name_of(embedding_optimizer_names, d.table_optimizer));
    j["unique_rows_fraction"] = d.unique_rows_fraction;
    return j;
}

// ---- writing -----------------------------------------------------------------------------

ordered_json model_json(const ModelSpec& m, const Provenance& info) {
    ordered_json j;
    j["name"] = info.name;
    j["source"] = info.source;
    j["layers"] = m.layers;
    j["hidden"] = m.hidden;
    j["heads"] = m.heads;
    j["kv_heads"] = m.kv_heads;
    j["head_dim"] = m.head_dim;
    j["ffn_hidden"] = m.ffn_hidden;
    j["gated_mlp"] = m.gated_mlp;
    j["seq_len"] = m.seq_len;
    j["vocab"] = m.vocab;
    j["tied_embeddings"] = m.tied_embeddings;
    j["bias"] = m.bias;
    j["learned_position_embeddings"] = m.learned_position_embeddings;
    if (m.is_moe()) {  // dense models keep the file they had
        j["experts"] = m.experts;
        j["experts_per_token"] = m.experts_per_token;
        j["expert_ffn_hidden"] = m.expert_ffn_hidden;
        j["shared_experts"] = m.shared_experts;
        j["dense_layers"] = m.dense_layers;
        j["moe_layer_interval"] = m.moe_layer_interval;
        j["capacity_factor"] = m.capacity_factor;
    }
    if (m.is_mla()) {
        j["q_lora_rank"] = m.q_lora_rank;
        j["kv_lora_rank"] = m.kv_lora_rank;
        j["qk_nope_head_dim"] = m.qk_nope_head_dim;
        j["qk_rope_head_dim"] = m.qk_rope_head_dim;
        j["v_head_dim"] = m.v_head_dim;
    }
    if (m.sliding_window > 0) {
        j["sliding_window"] = m.sliding_window;
        j["full_attention_interval"] = m.full_attention_interval;
    }
    if (m.mtp_layers > 0) j["mtp_layers"] = m.mtp_layers;
    if (m.rope_mscale != 1.0) j["rope_mscale"] = m.rope_mscale;
    if (m.glu_clamp != 0.0) j["glu_clamp"] = m.glu_clamp;
    return j;
}

static ordered_json network_json(const ScaleUpNetwork& s) {
    ordered_json j;
    j["domain_size"] = s.domain_size;
    j["bandwidth_gbps"] = s.bandwidth_gbps;
    j["latency_us"] = s.latency_us;
    j["efficiency"] = s.efficiency;
    return j;
}

static ordered_json network_json(const ScaleOutNetwork& s) {
    ordered_json j;
    j["bandwidth_gbps"] = s.bandwidth_gbps;
    j["latency_us"] = s.latency_us;
    j["efficiency"] = s.efficiency;
    const ScaleOutNetwork neutral;
    if (s.leaf_domains != neutral.leaf_domains) j["leaf_domains"] = s.leaf_domains;
    if (s.oversubscription != neutral.oversubscription) j["oversubscription"] = s.oversubscription;
    if (s.spine_latency_us != neutral.spine_latency_us) j["spine_latency_us"] = s.spine_latency_us;
    if (s.rail_only) j["rail_only"] = true;
    return j;
}

static ordered_json expanded_json(const ExpandedMemory& e) {
    ordered_json j;
    j["capacity_gib"] = e.capacity_gib;
    j["bandwidth_gbps"] = e.bandwidth_gbps;
    j["latency_us"] = e.latency_us;
    j["attach"] = to_string(e.attach);
    j["pool_nodes"] = e.pool_nodes;
    return j;
}

ordered_json node_json(const NodeSpec& n, const Provenance& info) {
    ordered_json j;
    j["name"] = info.name;
    j["source"] = info.source;
    j["accelerators"] = n.accelerators;
    j["matrix_fp16_tflops"] = n.matrix_fp16_tflops;
    j["matrix_fp8_tflops"] = n.matrix_fp8_tflops;
    j["vector_tflops"] = n.vector_tflops;
    j["gemm"]["max_fraction"] = n.gemm.max_fraction;
    j["gemm"]["tile_overhead_k"] = n.gemm.tile_overhead_k;
    j["gemm"]["launch_overhead_us"] = n.gemm.launch_overhead_us;
    // Written when they differ from their defaults, so older node files keep their bytes.
    const NodeSpec neutral;
    if (n.gemm.fp8_max_fraction != neutral.gemm.fp8_max_fraction) j["gemm"]["fp8_max_fraction"] = n.gemm.fp8_max_fraction;
    if (n.gemm.fp4_max_fraction != neutral.gemm.fp4_max_fraction) j["gemm"]["fp4_max_fraction"] = n.gemm.fp4_max_fraction;
    if (n.matrix_fp4_tflops != neutral.matrix_fp4_tflops) j["matrix_fp4_tflops"] = n.matrix_fp4_tflops;
    if (n.attention != neutral.attention) {
        j["attention"]["max_fraction"] = n.attention.max_fraction;
        j["attention"]["softmax_head_dim"] = n.attention.softmax_head_dim;
        j["attention"]["backward_efficiency"] = n.attention.backward_efficiency;
    }
    j["hbm_capacity_gib"] = n.hbm_capacity_gib;
    j["hbm_bandwidth_gbps"] = n.hbm_bandwidth_gbps;
    j["hbm_efficiency"] = n.hbm_efficiency;
    j["hbm_reserved_gib"] = n.hbm_reserved_gib;
    if (n.hbm_allocator_margin != neutral.hbm_allocator_margin) j["hbm_allocator_margin"] = n.hbm_allocator_margin;
    j["expanded"] = expanded_json(n.expanded);
    j["scale_up"] = network_json(n.scale_up);
    j["scale_out"] = network_json(n.scale_out);
    j["power_kw"] = n.power_kw;
    if (n.host_op_us != neutral.host_op_us) j["host_op_us"] = n.host_op_us;
    return j;
}

ordered_json training_json(const TrainingSpec& t) {
    ordered_json j;
    j["global_batch"] = t.global_batch;
    j["precision"] = to_string(t.precision);
    j["optimizer"] = to_string(t.optimizer);
    j["grad_reduce"] = to_string(t.grad_reduce);
    j["attention"] = to_string(t.attention);
    j["dropout"] = t.dropout;
    j["cuda_graphs"] = t.cuda_graphs;
    return j;
}

namespace {
// Every strategy key a transformer uses; the keys most strategies leave at their neutral
// values (context and expert parallelism, stage layouts, the DLRM's tables) only when set.
ordered_json transformer_strategy_json(const Strategy& s) {
    ordered_json j;
    j["tp"] = s.tp;
    j["pp"] = s.pp;
    j["dp"] = s.dp;
    j["microbatch"] = s.microbatch;
    j["interleave"] = s.interleave;
    j["recompute"] = to_string(s.recompute);
    j["sequence_parallel"] = s.sequence_parallel;
    j["zero_stage"] = s.zero_stage;
    j["offload_optimizer"] = s.offload_optimizer;
    j["offload_weights"] = s.offload_weights;
    j["offload_activations"] = s.offload_activations;
    j["dp_overlap"] = s.dp_overlap;
    j["tp_overlap"] = s.tp_overlap;
    j["pp_scatter_gather"] = s.pp_scatter_gather;
    j["pp_overlap"] = s.pp_overlap;
    // Written when they differ from their neutral values, so dense 3D strategies keep their files.
    const Strategy neutral;
    if (s.cp != neutral.cp) j["cp"] = s.cp;
    if (s.ep != neutral.ep) j["ep"] = s.ep;
    if (s.etp != neutral.etp) j["etp"] = s.etp;
    if (s.ep_overlap != neutral.ep_overlap) j["ep_overlap"] = s.ep_overlap;
    if (s.ep_dispatch != neutral.ep_dispatch) j["ep_dispatch"] = std::string(name_of(ep_dispatch_names, s.ep_dispatch));
    if (s.zero_shard != neutral.zero_shard) j["zero_shard"] = s.zero_shard;
    if (s.pipeline_first_layers != neutral.pipeline_first_layers) j["pipeline_first_layers"] = s.pipeline_first_layers;
    if (s.pipeline_last_layers != neutral.pipeline_last_layers) j["pipeline_last_layers"] = s.pipeline_last_layers;
    if (s.embedding_in_pipeline_split) j["embedding_in_pipeline_split"] = true;
    if (s.loss_in_pipeline_split) j["loss_in_pipeline_split"] = true;
    if (s.recompute_layers != neutral.recompute_layers) j["recompute_layers"] = s.recompute_layers;
    if (s.emb_sharding != neutral.emb_sharding) j["emb_sharding"] = std::string(name_of(emb_sharding_names, s.emb_sharding));
    if (s.emb_placement != neutral.emb_placement) j["emb_placement"] = std::string(name_of(emb_placement_names, s.emb_placement));
    if (s.emb_cache_fraction != neutral.emb_cache_fraction) j["emb_cache_fraction"] = s.emb_cache_fraction;
    if (s.emb_cache_hit_rate != neutral.emb_cache_hit_rate) j["emb_cache_hit_rate"] = s.emb_cache_hit_rate;
    if (s.emb_state != neutral.emb_state) j["emb_state"] = std::string(name_of(emb_state_names, s.emb_state));
    return j;
}
}  // namespace

ordered_json strategy_json(const Strategy& s, Workload w) {
    if (w == Workload::transformer) return transformer_strategy_json(s);
    // A DLRM: dp, the overlap of the MLPs' all-reduce and the tables' sharding and placement;
    // every other key only where it differs from its neutral value.
    ordered_json j;
    j["dp"] = s.dp;
    j["dp_overlap"] = s.dp_overlap;
    j["emb_sharding"] = std::string(name_of(emb_sharding_names, s.emb_sharding));
    j["emb_placement"] = std::string(name_of(emb_placement_names, s.emb_placement));
    j["emb_cache_fraction"] = s.emb_cache_fraction;
    j["emb_cache_hit_rate"] = s.emb_cache_hit_rate;
    j["emb_state"] = std::string(name_of(emb_state_names, s.emb_state));
    const ordered_json all = transformer_strategy_json(s);
    const ordered_json neutral = transformer_strategy_json(Strategy{});
    for (const auto& [key, value] : all.items())
        if (!j.contains(key) && (!neutral.contains(key) || neutral[key] != value)) j[key] = value;
    return j;
}

}  // namespace sections

std::string_view to_string(Precision v) noexcept { return sections::name_of(sections::precision_names, v); }
std::string_view to_string(Recompute v) noexcept { return sections::name_of(sections::recompute_names, v); }
std::string_view to_string(AttentionKernel v) noexcept { return sections::name_of(sections::attention_names, v); }
std::string_view to_string(Optimizer v) noexcept { return sections::name_of(sections::optimizer_names, v); }
std::string_view to_string(GradDtype v) noexcept { return sections::name_of(sections::grad_dtype_names, v); }
std::string_view to_string(ExpandedAttach v) noexcept { return sections::name_of(sections::attach_names, v); }
std::string_view to_string(Workload v) noexcept { return sections::name_of(sections::workload_names, v); }
std::string_view to_string(EmbeddingSharding v) noexcept { return sections::name_of(sections::emb_sharding_names, v); }
std::string_view to_string(EmbeddingPlacement v) noexcept { return sections::name_of(sections::emb_placement_names, v); }
std::string_view to_string(EmbeddingStateTier v) noexcept { return sections::name_of(sections::emb_state_names, v); }

}  // namespace comet
