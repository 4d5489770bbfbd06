#pragma once
// The 1F1B pipeline schedule (Narayanan et al. 2021), with interleaved virtual stages.

namespace comet {

// Idle time of fill and drain: (p-1)/v microbatch-times of the slowest rank.
[[nodiscard]] double pipeline_bubble_s(int pp, int interleave, double microbatch_s) noexcept;

// Layer-microbatches whose activations the first pipeline rank holds at once: p microbatches of
// L/p layers, times 1 + (p-1)/(p*v) with v interleaved chunks, and never more than all m.
[[nodiscard]] double in_flight_layer_microbatches(int layers, int pp, int interleave, int microbatches) noexcept;

// The same for the last rank.
[[nodiscard]] double last_rank_layer_microbatches(int layers, int pp, int interleave, int microbatches) noexcept;

}  // namespace comet
