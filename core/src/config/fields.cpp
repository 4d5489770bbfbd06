#include "comet/fields.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <type_traits>

#include "formats/scenario_sections.hpp"

namespace comet {
namespace {

template <class T>
constexpr double to_double(T v) noexcept {
    if constexpr (std::is_enum_v<T>)
        return static_cast<double>(static_cast<int>(v));
    else
        return static_cast<double>(v);
}

// Integers are rounded and clamped into their type (a NaN becomes 0, left for the range check to
// reject); an enumeration is clamped to its names.
template <class T>
void assign(T& field, double v, int choices = 0) noexcept {
    if constexpr (std::is_same_v<T, double>) {
        field = v;
    } else if constexpr (std::is_same_v<T, bool>) {
        field = v >= 0.5;
    } else {
        if (!(v == v)) v = 0;
        if constexpr (std::is_enum_v<T>) {
            field = static_cast<T>(std::clamp(static_cast<int>(std::lround(std::clamp(v, -1e6, 1e6))), 0, std::max(0, choices - 1)));
        } else {
            constexpr double lo = static_cast<double>(std::numeric_limits<T>::min());
            constexpr double hi = static_cast<double>(std::numeric_limits<T>::max());
            field = static_cast<T>(std::llround(std::clamp(v, lo, hi)));
        }
    }
}

// The names of an enumeration as files write them, in the enumeration's order.
template <class E, std::size_t N>
constexpr std::array<std::string_view, N> names_of(const std::array<EnumName<E>, N>& names) {
    std::array<std::string_view, N> out{};
    for (std::size_t i = 0; i < N; ++i) out[static_cast<std::size_t>(names[i].value)] = names[i].name;
    return out;
}
constexpr auto workload_names = names_of(sections::workload_names);
constexpr auto precision_names = names_of(sections::precision_names);
constexpr auto optimizer_names = names_of(sections::optimizer_names);
constexpr auto grad_dtype_names = names_of(sections::grad_dtype_names);
constexpr auto attention_names = names_of(sections::attention_names);
constexpr auto grouped_gemm_names = names_of(sections::grouped_gemm_names);
constexpr auto fused_attention_names = names_of(sections::fused_attention_names);
constexpr auto graph_scope_names = names_of(sections::graph_scope_names);
constexpr auto attach_names = names_of(sections::attach_names);
constexpr auto recompute_names = names_of(sections::recompute_names);
constexpr auto ep_dispatch_names = names_of(sections::ep_dispatch_names);
constexpr auto emb_sharding_names = names_of(sections::emb_sharding_names);
constexpr auto emb_placement_names = names_of(sections::emb_placement_names);
constexpr auto emb_state_names = names_of(sections::emb_state_names);
constexpr auto interaction_names = names_of(sections::interaction_names);
constexpr auto embedding_dtype_names = names_of(sections::embedding_dtype_names);
constexpr auto embedding_optimizer_names = names_of(sections::embedding_optimizer_names);

#define COMET_ACCESS(member) \
    [](const Config& c) noexcept -> double { return to_double(c.member); }, [](Config& c, double v) noexcept { assign(c.member, v); }
#define COMET_CHOICE(member, names)                                         \
    [](const Config& c) noexcept -> double { return to_double(c.member); }, \
        [](Config& c, double v) noexcept { assign(c.member, v, static_cast<int>((names).size())); }, names

using F = FieldType;
using P = Presence;
using W = WriteWhen;
constexpr double big = 1e9;
constexpr bool no_range = false;

// Conditions of keys written only where they mean something.
bool moe(const Config& c) noexcept { return c.model.is_moe(); }
bool mla(const Config& c) noexcept { return c.model.is_mla(); }
bool windowed(const Config& c) noexcept { return c.model.sliding_window > 0; }
bool own_attention_model(const Config& c) noexcept { return c.node.attention != AttentionModel{}; }
bool dcn(const Config& c) noexcept { return c.dlrm.interaction == DlrmInteraction::dcn; }

// A whole-number field with a range; a real field with a range; a switch; an enumeration.
constexpr FieldDesc whole(std::string_view path, std::string_view unit, double min, double max, std::string_view allowed,
                          double (*get)(const Config&) noexcept, void (*set)(Config&, double) noexcept, P presence = P::optional,
                          W write = W::always, bool (*written)(const Config&) noexcept = nullptr) {
    return {path, F::integer, unit, true, min, max, false, allowed, get, set, {}, presence, write, written};
}
constexpr FieldDesc number(std::string_view path, std::string_view unit, double min, double max, bool min_exclusive,
                           std::string_view allowed, double (*get)(const Config&) noexcept, void (*set)(Config&, double) noexcept,
                           P presence = P::optional, W write = W::always, bool (*written)(const Config&) noexcept = nullptr) {
    return {path, F::real, unit, true, min, max, min_exclusive, allowed, get, set, {}, presence, write, written};
}
constexpr FieldDesc flag(std::string_view path, double (*get)(const Config&) noexcept, void (*set)(Config&, double) noexcept,
                         W write = W::always) {
    return {path, F::boolean, "", no_range, 0, 1, false, "true or false", get, set, {}, P::optional, write, nullptr};
}
constexpr FieldDesc choice(std::string_view path, double (*get)(const Config&) noexcept, void (*set)(Config&, double) noexcept,
                           std::span<const std::string_view> names, W write = W::always,
                           bool (*written)(const Config&) noexcept = nullptr) {
    return {path, F::choice, "",          no_range, 0,      static_cast<double>(names.size() - 1), false, "", get,
            set,  names,     P::optional, write,    written};
}
constexpr FieldDesc list(std::string_view path, P presence) {
    return {path, F::list, "", no_range, 0, 0, false, "", nullptr, nullptr, {}, presence, W::always, nullptr};
}
constexpr FieldDesc only(std::uint8_t workloads, FieldDesc f) {
    f.workloads = workloads;
    return f;
}
constexpr FieldDesc dlrm_always(FieldDesc f) {
    f.dlrm_always = true;
    return f;
}
constexpr FieldDesc wide(FieldDesc f) {
    f.wide = true;
    return f;
}

constexpr auto T = for_transformer;
constexpr auto D = for_dlrm;

const std::array fields{
    choice("workload", COMET_CHOICE(workload, workload_names)),

    // ---- model: a transformer's shape --------------------------------------------------------
    whole("model.layers", "", 1, 100000, "an integer from 1 to 100000", COMET_ACCESS(model.layers), P::required),
    whole("model.hidden", "", 1, 1048576, "an integer from 1 to 1048576", COMET_ACCESS(model.hidden), P::required),
    whole("model.heads", "", 1, 65536, "an integer from 1 to 65536", COMET_ACCESS(model.heads), P::required),
    // kv_heads and head_dim derive from heads and hidden where a file leaves them out.
    whole("model.kv_heads", "", 1, 65536, "an integer from 1 to model.heads that divides it", COMET_ACCESS(model.kv_heads)),
    whole("model.head_dim", "", 1, 65536, "an integer from 1 to 65536", COMET_ACCESS(model.head_dim)),
    whole("model.ffn_hidden", "", 1, 16777216, "an integer from 1 to 16777216", COMET_ACCESS(model.ffn_hidden), P::required),
    flag("model.gated_mlp", COMET_ACCESS(model.gated_mlp)),
    whole("model.seq_len", "tokens", 1, 67108864, "an integer from 1 to 67108864 tokens", COMET_ACCESS(model.seq_len), P::required),
    whole("model.vocab", "tokens", 1, 67108864, "an integer from 1 to 67108864", COMET_ACCESS(model.vocab), P::required),
    flag("model.tied_embeddings", COMET_ACCESS(model.tied_embeddings)),
    flag("model.bias", COMET_ACCESS(model.bias)),
    flag("model.learned_position_embeddings", COMET_ACCESS(model.learned_position_embeddings)),
    whole("model.experts", "", 0, 65536, "0 (a dense model) or an integer up to 65536 routed experts", COMET_ACCESS(model.experts),
          P::optional, W::when, moe),
    whole("model.experts_per_token", "", 0, 65536, "an integer from 1 to model.experts (0 for a dense model)",
          COMET_ACCESS(model.experts_per_token), P::optional, W::when, moe),
    whole("model.expert_ffn_hidden", "", 0, 16777216, "an integer from 1 to 16777216 (0 for a dense model)",
          COMET_ACCESS(model.expert_ffn_hidden), P::optional, W::when, moe),
    whole("model.shared_experts", "", 0, 1024, "an integer from 0 to 1024", COMET_ACCESS(model.shared_experts), P::optional, W::when, moe),
    whole("model.dense_layers", "", 0, 100000, "an integer from 0 to model.layers", COMET_ACCESS(model.dense_layers), P::optional, W::when,
          moe),
    whole("model.moe_layer_interval", "", 1, 100000, "an integer from 1 to 100000", COMET_ACCESS(model.moe_layer_interval), P::optional,
          W::when, moe),
    number("model.capacity_factor", "", 0, 64, true, "> 0 and at most 64", COMET_ACCESS(model.capacity_factor), P::optional, W::when, moe),
    whole("model.q_lora_rank", "", 0, 1048576, "0 (queries projected directly) or an integer up to 1048576",
          COMET_ACCESS(model.q_lora_rank), P::optional, W::when, mla),
    whole("model.kv_lora_rank", "", 0, 1048576, "0 (no multi-head latent attention) or an integer up to 1048576",
          COMET_ACCESS(model.kv_lora_rank), P::optional, W::when, mla),
    whole("model.qk_nope_head_dim", "", 0, 65536, "an integer from 0 to 65536", COMET_ACCESS(model.qk_nope_head_dim), P::optional, W::when,
          mla),
    whole("model.qk_rope_head_dim", "", 0, 65536, "an integer from 0 to 65536", COMET_ACCESS(model.qk_rope_head_dim), P::optional, W::when,
          mla),
    whole("model.v_head_dim", "", 0, 65536, "an integer from 1 to 65536 with multi-head latent attention (else 0)",
          COMET_ACCESS(model.v_head_dim), P::optional, W::when, mla),
    whole("model.sliding_window", "tokens", 0, 67108864, "0 (full attention) or a window of 1 to 67108864 tokens",
          COMET_ACCESS(model.sliding_window), P::optional, W::when, windowed),
    whole("model.full_attention_interval", "", 0, 100000, "0 (every layer uses the window) or an integer up to 100000",
          COMET_ACCESS(model.full_attention_interval), P::optional, W::when, windowed),
    whole("model.mtp_layers", "", 0, 16, "0 (no multi-token prediction) or an integer up to 16", COMET_ACCESS(model.mtp_layers),
          P::optional, W::not_default),
    number("model.rope_mscale", "", 0, 100, true, "> 0 and at most 100 (1 = plain RoPE)", COMET_ACCESS(model.rope_mscale), P::optional,
           W::not_default),
    number("model.glu_clamp", "", 0, 1e6, false, "0 (no clamp) or a limit up to 1e6", COMET_ACCESS(model.glu_clamp), P::optional,
           W::not_default),

    // ---- dlrm: a recommendation model's shape --------------------------------------------------
    list("dlrm.tables", P::required),
    whole("dlrm.dense_features", "", 0, 1e6, "an integer from 0 to 1e6", COMET_ACCESS(dlrm.dense_features)),
    list("dlrm.bottom_mlp", P::optional),
    list("dlrm.top_mlp", P::required),
    choice("dlrm.interaction", COMET_CHOICE(dlrm.interaction, interaction_names)),
    whole("dlrm.cross_layers", "", 0, 64, "an integer from 0 to 64 cross layers", COMET_ACCESS(dlrm.cross_layers), P::optional, W::when,
          dcn),
    whole("dlrm.cross_rank", "", 0, 1e6, "0 (full-rank cross layers) or an integer up to 1e6", COMET_ACCESS(dlrm.cross_rank), P::optional,
          W::when, dcn),
    choice("dlrm.embedding_dtype", COMET_CHOICE(dlrm.embedding_dtype, embedding_dtype_names)),
    choice("dlrm.table_optimizer", COMET_CHOICE(dlrm.table_optimizer, embedding_optimizer_names)),
    number("dlrm.unique_rows_fraction", "", 0, 1, true, "a fraction > 0 and <= 1 of the lookups", COMET_ACCESS(dlrm.unique_rows_fraction)),

    // ---- node: the hardware of one scale-up node -----------------------------------------------
    whole("node.accelerators", "", 1, 65536, "an integer from 1 to 65536", COMET_ACCESS(node.accelerators), P::required),
    number("node.matrix_fp16_tflops", "TFLOP/s", 0, 1e6, true, "> 0 and at most 1e6 TFLOP/s", COMET_ACCESS(node.matrix_fp16_tflops),
           P::required),
    number("node.matrix_fp8_tflops", "TFLOP/s", 0, 1e7, false, "0 (no fp8) up to 1e7 TFLOP/s", COMET_ACCESS(node.matrix_fp8_tflops)),
    number("node.vector_tflops", "TFLOP/s", 0, 1e6, true, "> 0 and at most 1e6 TFLOP/s", COMET_ACCESS(node.vector_tflops), P::required),
    number("node.gemm.max_fraction", "", 0, 1, true, "a fraction > 0 and <= 1", COMET_ACCESS(node.gemm.max_fraction)),
    number("node.gemm.tile_overhead_k", "steps", 0, 1e6, false, "0 to 1e6 inner-loop steps", COMET_ACCESS(node.gemm.tile_overhead_k)),
    number("node.gemm.launch_overhead_us", "us", 0, 1e4, false, "0 to 10000 us", COMET_ACCESS(node.gemm.launch_overhead_us)),
    number("node.gemm.fp8_max_fraction", "", 0, 1, false, "0 (as node.gemm.max_fraction) or a fraction up to 1",
           COMET_ACCESS(node.gemm.fp8_max_fraction), P::optional, W::not_default),
    number("node.gemm.fp4_max_fraction", "", 0, 1, false, "0 (as node.gemm.fp8_max_fraction) or a fraction up to 1",
           COMET_ACCESS(node.gemm.fp4_max_fraction), P::optional, W::not_default),
    number("node.gemm.fp8_tile_overhead_k", "steps", 0, 1e6, false, "0 (as node.gemm.tile_overhead_k) up to 1e6 inner-loop steps",
           COMET_ACCESS(node.gemm.fp8_tile_overhead_k), P::optional, W::not_default),
    whole("node.gemm.sms", "", 0, 1e6, "0 (no waves) or an integer up to 1e6 streaming multiprocessors", COMET_ACCESS(node.gemm.sms),
          P::optional, W::not_default),
    whole("node.gemm.max_split_k", "", 1, 1024, "an integer from 1 (never split) to 1024", COMET_ACCESS(node.gemm.max_split_k), P::optional,
          W::not_default),
    number("node.gemm.min_split_k_depth", "steps", 1, 1e6, false, "1 to 1e6 inner-loop steps per split",
           COMET_ACCESS(node.gemm.min_split_k_depth), P::optional, W::not_default),
    number("node.matrix_fp4_tflops", "TFLOP/s", 0, 1e7, false, "0 (no fp4) up to 1e7 TFLOP/s", COMET_ACCESS(node.matrix_fp4_tflops),
           P::optional, W::not_default),
    number("node.attention.max_fraction", "", 0, 1, true, "a fraction > 0 and <= 1", COMET_ACCESS(node.attention.max_fraction), P::optional,
           W::when, own_attention_model),
    number("node.attention.softmax_head_dim", "steps", 0, 1e5, false, "0 to 100000 head-dimension steps",
           COMET_ACCESS(node.attention.softmax_head_dim), P::optional, W::when, own_attention_model),
    number("node.attention.backward_efficiency", "", 0, 1, true, "a fraction > 0 and <= 1",
           COMET_ACCESS(node.attention.backward_efficiency), P::optional, W::when, own_attention_model),
    number("node.attention.fill_keys", "keys", -1, 1e6, false, "-1 (as node.gemm.tile_overhead_k) or 0 to 1e6 key positions",
           COMET_ACCESS(node.attention.fill_keys), P::optional, W::when, own_attention_model),
    number("node.attention_flash2.max_fraction", "", 0, 1, false, "0 (as node.attention) or a fraction up to 1",
           COMET_ACCESS(node.attention_flash2.max_fraction), P::optional, W::not_default),
    number("node.attention_flash2.softmax_head_dim", "steps", 0, 1e5, false, "0 to 100000 head-dimension steps",
           COMET_ACCESS(node.attention_flash2.softmax_head_dim), P::optional, W::not_default),
    number("node.attention_flash2.backward_efficiency", "", 0, 1, false, "0 (as node.attention) or a fraction up to 1",
           COMET_ACCESS(node.attention_flash2.backward_efficiency), P::optional, W::not_default),
    number("node.attention_flash2.fill_keys", "keys", -1, 1e6, false, "-1 (as node.gemm.tile_overhead_k) or 0 to 1e6 key positions",
           COMET_ACCESS(node.attention_flash2.fill_keys), P::optional, W::not_default),
    number("node.hbm_capacity_gib", "GiB", 0, 1e6, true, "> 0 and at most 1e6 GiB", COMET_ACCESS(node.hbm_capacity_gib), P::required),
    number("node.hbm_bandwidth_gbps", "GB/s", 0, 1e7, true, "> 0 and at most 1e7 GB/s", COMET_ACCESS(node.hbm_bandwidth_gbps), P::required),
    number("node.hbm_efficiency", "", 0, 1, true, "a fraction > 0 and <= 1", COMET_ACCESS(node.hbm_efficiency)),
    number("node.expanded.capacity_gib", "GiB", 0, 1e9, false, "0 (no expanded tier) up to 1e9 GiB",
           COMET_ACCESS(node.expanded.capacity_gib)),
    number("node.expanded.bandwidth_gbps", "GB/s", 0, 1e7, false, "0 to 1e7 GB/s, > 0 when capacity_gib > 0",
           COMET_ACCESS(node.expanded.bandwidth_gbps)),
    number("node.expanded.latency_us", "us", 0, 1e6, false, "0 to 1e6 us", COMET_ACCESS(node.expanded.latency_us)),
    choice("node.expanded.attach", COMET_CHOICE(node.expanded.attach, attach_names)),
    whole("node.expanded.pool_nodes", "", 1, 1e6, "an integer from 1 to 1e6", COMET_ACCESS(node.expanded.pool_nodes)),
    whole("node.scale_up.domain_size", "accelerators", 1, 1e6, "an integer from 1 to 1e6 accelerators",
          COMET_ACCESS(node.scale_up.domain_size), P::required),
    number("node.scale_up.bandwidth_gbps", "GB/s", 0, 1e7, true, "> 0 and at most 1e7 GB/s", COMET_ACCESS(node.scale_up.bandwidth_gbps),
           P::required),
    number("node.scale_up.latency_us", "us", 0, 1e6, false, "0 to 1e6 us", COMET_ACCESS(node.scale_up.latency_us)),
    number("node.scale_up.efficiency", "", 0, 1, true, "a fraction > 0 and <= 1", COMET_ACCESS(node.scale_up.efficiency)),
    number("node.scale_up.switch_allreduce_fraction", "", 0, 1, false, "0 (no reduction in the switch) or a fraction up to 1",
           COMET_ACCESS(node.scale_up.switch_allreduce_fraction), P::optional, W::not_default),
    number("node.scale_out.bandwidth_gbps", "GB/s", 0, 1e7, true, "> 0 and at most 1e7 GB/s", COMET_ACCESS(node.scale_out.bandwidth_gbps),
           P::required),
    number("node.scale_out.latency_us", "us", 0, 1e6, false, "0 to 1e6 us", COMET_ACCESS(node.scale_out.latency_us)),
    number("node.scale_out.efficiency", "", 0, 1, true, "a fraction > 0 and <= 1", COMET_ACCESS(node.scale_out.efficiency)),
    whole("node.scale_out.leaf_domains", "domains", 0, 1e7, "0 (one non-blocking tier) or an integer up to 1e7 scale-up domains per leaf",
          COMET_ACCESS(node.scale_out.leaf_domains), P::optional, W::not_default),
    number("node.scale_out.oversubscription", "x", 1, 64, false, "from 1 (non-blocking) to 64 (leaf downlink : spine uplink)",
           COMET_ACCESS(node.scale_out.oversubscription), P::optional, W::not_default),
    number("node.scale_out.spine_latency_us", "us", 0, 1e6, false, "0 to 1e6 us", COMET_ACCESS(node.scale_out.spine_latency_us),
           P::optional, W::not_default),
    flag("node.scale_out.rail_only", COMET_ACCESS(node.scale_out.rail_only), W::not_default),
    number("node.power_kw", "kW", 0, 1e4, false, "0 (unknown) up to 10000 kW per node", COMET_ACCESS(node.power_kw)),

    // ---- cluster -------------------------------------------------------------------------------
    whole("cluster.nodes", "", 1, 1e7, "an integer from 1 to 1e7", COMET_ACCESS(cluster.nodes), P::required),

    // ---- training ------------------------------------------------------------------------------
    wide(whole("training.global_batch", "sequences", 1, big, "an integer from 1 to 1e9 sequences", COMET_ACCESS(training.global_batch),
               P::required)),
    choice("training.precision", COMET_CHOICE(training.precision, precision_names)),
    choice("training.optimizer", COMET_CHOICE(training.optimizer, optimizer_names)),
    choice("training.grad_reduce", COMET_CHOICE(training.grad_reduce, grad_dtype_names)),
    only(T, choice("training.attention", COMET_CHOICE(training.attention, attention_names))),
    only(T, flag("training.dropout", COMET_ACCESS(training.dropout))),
    flag("training.cuda_graphs", COMET_ACCESS(training.cuda_graphs)),

    // ---- software ------------------------------------------------------------------------------
    number("software.host_op_us", "us", 0, 1e4, false, "0 (the host keeps ahead) to 10000 us per framework op",
           COMET_ACCESS(software.host_op_us), P::required),
    only(T, choice("software.grouped_gemm", COMET_CHOICE(software.grouped_gemm, grouped_gemm_names))),
    only(T, flag("software.moe_host_sync", COMET_ACCESS(software.moe_host_sync))),
    only(T, choice("software.fused_attention", COMET_CHOICE(software.fused_attention, fused_attention_names))),
    choice("software.graph_scope", COMET_CHOICE(software.graph_scope, graph_scope_names)),
    flag("software.nvls", COMET_ACCESS(software.nvls), W::not_default),
    number("software.weight_bytes", "bytes", 1, 4, false, "1 to 4 bytes per parameter (2 = 16-bit weights, 4 = fp32)",
           COMET_ACCESS(software.weight_bytes), P::optional, W::not_default),
    flag("software.master_weights", COMET_ACCESS(software.master_weights), W::not_default),
    number("software.moment_bytes", "bytes", 0, 8, false, "0 to 8 bytes per moment and parameter (4 = fp32, 2 = bf16)",
           COMET_ACCESS(software.moment_bytes), P::optional, W::not_default),
    only(T, number("software.logits_bytes", "bytes", 0, 32, false, "0 (a chunked loss that never holds the logits) to 32 bytes per logit",
                   COMET_ACCESS(software.logits_bytes), P::optional, W::not_default)),
    number("software.hbm_reserved_gib", "GiB", 0, 1e6, false, "0 or more GiB, less than node.hbm_capacity_gib",
           COMET_ACCESS(software.hbm_reserved_gib), P::optional, W::not_default),
    number("software.hbm_allocator_margin", "", 0, 0.5, false, "a fraction from 0 to 0.5 of node.hbm_capacity_gib",
           COMET_ACCESS(software.hbm_allocator_margin), P::optional, W::not_default),

    // ---- strategy ------------------------------------------------------------------------------
    only(T, whole("strategy.tp", "", 1, 1e7, "an integer from 1 to 1e7", COMET_ACCESS(strategy.tp), P::required_for_transformer)),
    only(T, whole("strategy.pp", "", 1, 1e7, "an integer from 1 to 1e7", COMET_ACCESS(strategy.pp), P::required_for_transformer)),
    dlrm_always(whole("strategy.dp", "", 1, 1e7, "an integer from 1 to 1e7", COMET_ACCESS(strategy.dp), P::required)),
    only(T, whole("strategy.microbatch", "sequences", 1, big, "an integer from 1 to the global batch", COMET_ACCESS(strategy.microbatch),
                  P::required_for_transformer)),
    only(T, whole("strategy.interleave", "chunks", 1, 100000, "an integer from 1 to model.layers", COMET_ACCESS(strategy.interleave))),
    only(T, choice("strategy.recompute", COMET_CHOICE(strategy.recompute, recompute_names))),
    only(T, flag("strategy.sequence_parallel", COMET_ACCESS(strategy.sequence_parallel))),
    only(T, whole("strategy.zero_stage", "", 0, 3, "0, 1, 2 or 3", COMET_ACCESS(strategy.zero_stage))),
    only(T, flag("strategy.offload_optimizer", COMET_ACCESS(strategy.offload_optimizer))),
    only(T, flag("strategy.offload_weights", COMET_ACCESS(strategy.offload_weights))),
    only(T, flag("strategy.offload_activations", COMET_ACCESS(strategy.offload_activations))),
    dlrm_always(flag("strategy.dp_overlap", COMET_ACCESS(strategy.dp_overlap))),
    only(T, flag("strategy.tp_overlap", COMET_ACCESS(strategy.tp_overlap))),
    only(T, flag("strategy.pp_scatter_gather", COMET_ACCESS(strategy.pp_scatter_gather))),
    only(T, flag("strategy.pp_overlap", COMET_ACCESS(strategy.pp_overlap))),
    only(T, whole("strategy.cp", "", 1, 1e7, "an integer from 1 to 1e7", COMET_ACCESS(strategy.cp), P::optional, W::not_default)),
    only(T, whole("strategy.ep", "", 1, 1e7, "an integer from 1 to 1e7", COMET_ACCESS(strategy.ep), P::optional, W::not_default)),
    only(T, whole("strategy.etp", "", 1, 1e7, "an integer from 1 to 1e7", COMET_ACCESS(strategy.etp), P::optional, W::not_default)),
    only(T, number("strategy.ep_overlap", "fraction", 0, 1, false, "a fraction from 0 (sequential) to 1 (fully hidden)",
                   COMET_ACCESS(strategy.ep_overlap), P::optional, W::not_default)),
    only(T, choice("strategy.ep_dispatch", COMET_CHOICE(strategy.ep_dispatch, ep_dispatch_names), W::not_default)),
    only(T, whole("strategy.zero_shard", "", 0, 1e7, "0 (the whole dp x cp group) or a divisor of dp x cp",
                  COMET_ACCESS(strategy.zero_shard), P::optional, W::not_default)),
    only(T, whole("strategy.pipeline_first_layers", "", 0, 100000,
                  "0 (automatic) or the first stage's layers, a multiple of strategy.interleave",
                  COMET_ACCESS(strategy.pipeline_first_layers), P::optional, W::not_default)),
    only(T, whole("strategy.pipeline_last_layers", "", 0, 100000,
                  "0 (automatic) or the last stage's layers, a multiple of strategy.interleave",
                  COMET_ACCESS(strategy.pipeline_last_layers), P::optional, W::not_default)),
    only(T, flag("strategy.embedding_in_pipeline_split", COMET_ACCESS(strategy.embedding_in_pipeline_split), W::not_default)),
    only(T, flag("strategy.loss_in_pipeline_split", COMET_ACCESS(strategy.loss_in_pipeline_split), W::not_default)),
    only(T, whole("strategy.recompute_layers", "", 0, 100000,
                  "0 (every layer) or the layers of each virtual stage that full recomputation recomputes",
                  COMET_ACCESS(strategy.recompute_layers), P::optional, W::not_default)),
    only(D, dlrm_always(choice("strategy.emb_sharding", COMET_CHOICE(strategy.emb_sharding, emb_sharding_names), W::not_default))),
    only(D, dlrm_always(choice("strategy.emb_placement", COMET_CHOICE(strategy.emb_placement, emb_placement_names), W::not_default))),
    only(D, dlrm_always(number("strategy.emb_cache_fraction", "fraction", 0, 1, false,
                               "a fraction from 0 to 1 of each shard's rows (> 0 with the cached placement)",
                               COMET_ACCESS(strategy.emb_cache_fraction), P::optional, W::not_default))),
    only(D, dlrm_always(number("strategy.emb_cache_hit_rate", "fraction", 0, 1, false, "a fraction from 0 to 1 of the lookups",
                               COMET_ACCESS(strategy.emb_cache_hit_rate), P::optional, W::not_default))),
    only(D, dlrm_always(choice("strategy.emb_state", COMET_CHOICE(strategy.emb_state, emb_state_names), W::not_default))),
};
#undef COMET_ACCESS
#undef COMET_CHOICE

std::string_view section_of(std::string_view path) noexcept { return path.substr(0, path.find('.')); }

}  // namespace

std::span<const FieldDesc> all_fields() noexcept {
    // Shapes belong to their workload; set after the table so each entry stays short.
    static const auto table = [] {
        auto t = fields;
        for (FieldDesc& f : t) {
            if (f.path.starts_with("model.")) f.workloads = for_transformer;
            if (f.path.starts_with("dlrm.")) f.workloads = for_dlrm;
        }
        return t;
    }();
    return table;
}

const FieldDesc* find_field(std::string_view path) noexcept {
    for (const FieldDesc& f : all_fields())
        if (f.path == path) return &f;
    return nullptr;
}

std::span<const FieldDesc> section_fields(std::string_view section) noexcept {
    const auto all = all_fields();
    std::size_t first = all.size(), last = all.size();
    for (std::size_t i = 0; i < all.size(); ++i) {
        if (section_of(all[i].path) != section) continue;
        if (first == all.size()) first = i;
        last = i + 1;
    }
    if (first == all.size()) return {};
    return all.subspan(first, last - first);
}

}  // namespace comet
