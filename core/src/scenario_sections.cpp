#include "scenario_sections.hpp"

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
}

void read_strategy(ObjectReader& o, Strategy& s) {
    o.required_int("tp", s.tp);
    o.required_int("pp", s.pp);
    o.required_int("dp", s.dp);
    o.required_int("microbatch", s.microbatch);
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
    return j;
}

ordered_json strategy_json(const Strategy& s) {
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
    return j;
}

}  // namespace sections

std::string_view to_string(Precision v) noexcept { return sections::name_of(sections::precision_names, v); }
std::string_view to_string(Recompute v) noexcept { return sections::name_of(sections::recompute_names, v); }
std::string_view to_string(AttentionKernel v) noexcept { return sections::name_of(sections::attention_names, v); }
std::string_view to_string(Optimizer v) noexcept { return sections::name_of(sections::optimizer_names, v); }
std::string_view to_string(GradDtype v) noexcept { return sections::name_of(sections::grad_dtype_names, v); }
std::string_view to_string(ExpandedAttach v) noexcept { return sections::name_of(sections::attach_names, v); }


}  // namespace comet
