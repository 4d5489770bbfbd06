#pragma once
// Every knob a sweep axis or a search can move. A knob is an id, a label and the registry field it
// moves (comet/fields.hpp gives its unit, range and accessors); set_knob() is the one place that
// says which knobs also keep derived fields in step.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "comet/spec.hpp"

namespace comet {

enum class Knob : std::uint8_t {
    // strategy
    tp,
    pp,
    dp,
    microbatch,
    interleave,
    recompute,
    sequence_parallel,
    zero_stage,
    offload_optimizer,
    offload_weights,
    offload_activations,
    dp_overlap,
    tp_overlap,
    cp,
    ep,
    etp,
    zero_shard,
    emb_sharding,
    emb_placement,
    emb_state,   // a DLRM's tables: sharding type, where rows and state live
    ep_overlap,  // a strategy setting the search keeps at the base value (more is always better)
    // a DLRM's hot-row cache: settings the search keeps at the base value (properties of the data)
    emb_cache_fraction,
    emb_cache_hit_rate,
    // hardware
    matrix_tflops,
    vector_tflops,
    hbm_gib,
    hbm_gbps,
    expanded_gib,
    expanded_gbps,
    scale_up_gbps,
    scale_up_latency_us,
    scale_up_domain,
    scale_out_gbps,
    scale_out_latency_us,
    scale_out_oversubscription,
    scale_out_leaf_domains,
    scale_out_rail_only,
    accelerators_per_node,
    nodes,
    // workload
    seq_len,
    global_batch,
    layers,
    hidden,
    embedding_gib,  // a DLRM's tables in all (every table's rows scaled alike)
    cuda_graphs,    // the step as captured CUDA graphs (0 eager, 1 captured)
    // software
    host_op_us,       // the host's issue time per framework op
    grouped_gemm,     // an MoE layer's expert GEMMs (0 one launch per expert, 1 one grouped kernel)
    moe_host_sync,    // the MoE dispatch waits for the host (0 no, 1 yes)
    fused_attention,  // the fused attention kernel (0 the vendor's, 1 FlashAttention-2)
    graph_scope,      // what the software captures as CUDA graphs (0 none, 1 dense layers, 2 whole step)
    nvls,             // the collective library may all-reduce in the NVLink switches (0 no, 1 yes)
    count_
};

enum class KnobKind : std::uint8_t { strategy, hardware, workload, software };

struct KnobInfo {
    Knob knob;
    std::string_view id;     // as written in files and on the command line, e.g. "hbm_gbps"
    std::string_view label;  // for people, e.g. "HBM bandwidth"
    std::string_view unit;   // e.g. "GB/s"; empty for counts
    KnobKind kind;
    bool integer;  // values are whole numbers (booleans and enums are 0/1/2...)
    double min;    // allowed range of values
    double max;
};

[[nodiscard]] std::span<const KnobInfo> all_knobs() noexcept;
[[nodiscard]] const KnobInfo& knob_info(Knob k) noexcept;
[[nodiscard]] std::optional<Knob> knob_from_id(std::string_view id) noexcept;

// Sets the field(s) behind a knob. Values are rounded for integer knobs. Derived fields follow:
// `hidden` keeps head_dim = hidden / heads and the ffn_hidden / hidden ratio; `nodes` and
// `accelerators_per_node` keep tp, cp and pp and give dp the rest of the cluster; `recompute`
// takes 0 none, 1 selective, 2 full; `matrix_tflops` scales fp8 with fp16; `embedding_gib` scales
// every DLRM table's rows to that total (dlrm_scale_embedding_bytes); the embedding knobs take
// their enumerations' order (0 table-wise, 1 row-wise, 2 column-wise; 0 HBM, 1 expanded, 2
// cached; 0 with the rows, 1 HBM, 2 expanded).
void set_knob(Config& c, Knob k, double value) noexcept;
[[nodiscard]] double get_knob(const Config& c, Knob k) noexcept;

// Bit set of strategy knobs (bit i = Knob i), for choosing what a search varies.
using KnobSet = std::uint64_t;
[[nodiscard]] constexpr KnobSet knob_bit(Knob k) noexcept { return KnobSet{1} << static_cast<unsigned>(k); }
inline constexpr KnobSet all_strategy_knobs = (KnobSet{1} << (static_cast<unsigned>(Knob::emb_state) + 1)) - 1;
// The strategy knobs each workload has (a search of the other's keeps its base value).
inline constexpr KnobSet transformer_strategy_knobs = (KnobSet{1} << (static_cast<unsigned>(Knob::zero_shard) + 1)) - 1;
inline constexpr KnobSet dlrm_strategy_knobs =
    (KnobSet{1} << static_cast<unsigned>(Knob::dp)) | (KnobSet{1} << static_cast<unsigned>(Knob::dp_overlap)) |
    (KnobSet{1} << static_cast<unsigned>(Knob::emb_sharding)) | (KnobSet{1} << static_cast<unsigned>(Knob::emb_placement)) |
    (KnobSet{1} << static_cast<unsigned>(Knob::emb_state));
// Whether a knob means anything for a workload (a DLRM has no layers, a transformer no tables).
[[nodiscard]] bool knob_for_workload(Knob k, Workload w) noexcept;
static_assert(static_cast<unsigned>(Knob::count_) <= 64, "KnobSet holds one bit per knob");

}  // namespace comet
