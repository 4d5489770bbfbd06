#include "comet/pipeline.hpp"

#include <algorithm>

namespace comet {

double pipeline_bubble_s(int pp, int interleave, double microbatch_s) noexcept {
    return (pp - 1.0) / interleave * microbatch_s;
}

namespace {
// Layer-microbatches held by pipeline rank `rank`. Without interleaving rank r runs p-r-1
// warm-up forwards before its first backward, so it holds p-r microbatches. With v chunks
// Megatron-LM's schedule warms up 2(p-r-1) + (v-1)p chunks, so it holds one more than that,
// each chunk being L/(p v) layers; for rank 0 this is L (1 + (p-1)/(p v)).
double held_layer_microbatches(int layers, int pp, int interleave, int microbatches, int rank) noexcept {
    const double p = pp;
    const double v = interleave;
    if (interleave <= 1)
        return std::min<double>(microbatches, p - rank) * layers / p;
    const double chunks = std::min<double>(static_cast<double>(microbatches) * v,
                                           2.0 * (p - rank - 1.0) + (v - 1.0) * p + 1.0);
    return chunks * layers / (p * v);
}
}  // namespace

double in_flight_layer_microbatches(int layers, int pp, int interleave, int microbatches) noexcept {
    return held_layer_microbatches(layers, pp, interleave, microbatches, 0);
}

double last_rank_layer_microbatches(int layers, int pp, int interleave, int microbatches) noexcept {
    return held_layer_microbatches(layers, pp, interleave, microbatches, pp - 1);
}

}  // namespace comet
