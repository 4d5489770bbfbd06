#include "comet/result.hpp"

#include <array>

#include "comet/units.hpp"

namespace comet {
namespace {
struct ReasonText {
    std::string_view id;
    std::string_view sentence;
};
constexpr std::array<ReasonText, static_cast<std::size_t>(Infeasible::count_)> reason_texts{{
    {"none", "fits"},
    {"invalid_input", "an input value is out of range"},
    {"too_many_accelerators", "tp x pp x dp needs more accelerators than the cluster has"},
    {"tp_heads", "tensor parallelism does not divide the attention heads"},
    {"tp_kv_heads", "tensor parallelism does not divide the key/value heads"},
    {"tp_ffn", "tensor parallelism does not divide the MLP width"},
    {"pp_layers", "pipeline stages x interleaving do not divide the layers"},
    {"batch_split", "the global batch is not a multiple of dp x microbatch"},
    {"interleave_needs_pp", "interleaving needs more than one pipeline stage"},
    {"interleave_microbatches", "interleaving needs the microbatches per pipeline to be a multiple of pp"},
    {"sequence_parallel_seq", "sequence parallelism needs tp to divide the sequence length"},
    {"fp8_unsupported", "fp8 precision on a node without fp8 throughput"},
    {"offload_without_tier", "offload needs an expanded memory tier"},
    {"hbm_capacity", "does not fit in HBM"},
    {"expanded_capacity", "does not fit in the expanded memory tier"},
    {"no_feasible_strategy", "no strategy fits"},
    {"cp_seq", "context parallelism needs 2 x cp (x tp with sequence parallelism) to divide the sequence length"},
    {"ep_dense_model", "expert parallelism needs a model with experts"},
    {"ep_experts", "expert parallelism does not divide the routed experts"},
    {"ep_group", "ep x etp does not divide tp x cp x dp"},
    {"etp_ffn", "expert tensor parallelism does not divide the expert MLP width"},
    {"zero_shard_group", "the ZeRO sharding group does not divide dp x cp"},
    {"fp4_unsupported", "fp4 precision on a node without fp4 throughput"},
    {"dlrm_column_split", "column-wise sharding needs dp to divide every table's dim"},
}};
}  // namespace

double model_flops_utilization(double flops, double seconds, double accelerators, double peak_tflops) noexcept {
    if (!(seconds > 0) || !(accelerators > 0) || !(peak_tflops > 0)) return 0.0;
    return units::flops_to_tflops(flops / (seconds * accelerators)) / peak_tflops;
}

std::string_view to_string(Infeasible reason) noexcept {
    const auto i = static_cast<std::size_t>(reason);
    return i < reason_texts.size() ? reason_texts[i].id : std::string_view{"unknown"};
}

std::string_view describe(Infeasible reason) noexcept {
    const auto i = static_cast<std::size_t>(reason);
    return i < reason_texts.size() ? reason_texts[i].sentence : std::string_view{"unknown reason"};
}

}  // namespace comet
