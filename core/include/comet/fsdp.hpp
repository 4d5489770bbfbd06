#pragma once
// FSDP balance (after Wang et al. 2025, "Memory and Bandwidth are All You Need for Fully
// Sharded Data Parallel"): with ZeRO-3, every microbatch gathers the weights (forward,
// backward, and the recomputed forward) and reduce-scatters the gradients. That traffic does
// not depend on the tokens in the microbatch; the compute it hides behind grows with them.
// So a node design hides FSDP only when the tokens per GPU needed to cover the traffic are
// fewer than the tokens per GPU that HBM can hold activations for.

#include <span>
#include <vector>

#include "comet/result.hpp"
#include "comet/spec.hpp"

namespace comet {

struct FsdpPoint {
    int dp = 0;          // ranks in the data-parallel group (the FSDP group is dp x cp, or zero_shard)
    long long gpus = 0;  // tp x cp x pp x dp
    // Per GPU per microbatch: microbatch x seq_len / (tp x cp).
    double tokens_to_hide = 0;             // where the microbatch's compute equals its FSDP traffic
    double max_tokens_hbm = 0;             // the most whose activations fit in HBM (0: not even one sequence)
    int max_microbatch = 0;                // sequences per microbatch at max_tokens_hbm
    double fsdp_comm_s = 0;                // FSDP traffic of one microbatch (gathers + reduce-scatter)
    double compute_s_per_token = 0;        // compute of the slowest rank per token per GPU
    Infeasible reason = Infeasible::none;  // set when the point cannot run at all (not a memory verdict)
    [[nodiscard]] bool hidden() const noexcept { return reason == Infeasible::none && max_tokens_hbm >= tokens_to_hide; }
};

// One point per data-parallel degree in `dps`, for base's model, node and strategy with
// zero_stage 3 (the cluster is sized to fit: nodes = ceil(gpus / accelerators per node)).
[[nodiscard]] std::vector<FsdpPoint> fsdp_balance(const Config& base, std::span<const int> dps);

// Powers of two from 2 up to the largest dp the base's cluster allows (at least 2..256), plus
// that largest dp itself when it is not a power of two.
[[nodiscard]] std::vector<int> fsdp_default_dps(const Config& base);

}  // namespace comet
