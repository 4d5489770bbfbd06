#pragma once
// Evaluate one training configuration: workload -> compute (roofline) -> collectives on the
// tiers they cross -> overlap -> pipeline schedule -> memory per tier.
// Never throws, never allocates: an impossible configuration is a Result with a reason.

#include "comet/result.hpp"
#include "comet/spec.hpp"

namespace comet {

[[nodiscard]] Result evaluate(const Config& config) noexcept;

// What an iteration trains on: tokens (global batch x sequence length) for a transformer, samples
// (the global batch) for a DLRM. Throughput, cost per million and totals to train count these.
[[nodiscard]] double items_per_iteration(const Config& c) noexcept;
// "tokens" or "samples".
[[nodiscard]] const char* item_name(Workload w) noexcept;

// Accelerators the strategy uses (tp * pp * dp) and the cluster has.
[[nodiscard]] long long accelerators_used(const Strategy& s) noexcept;
[[nodiscard]] long long accelerators_available(const Config& c) noexcept;

// Expanded-tier capacity and bandwidth seen by one accelerator, after sharing.
struct ExpandedShare {
    double capacity_bytes = 0;
    double bytes_per_s = 0;
    double latency_s = 0;
};
[[nodiscard]] ExpandedShare expanded_share(const NodeSpec& node) noexcept;

}  // namespace comet
