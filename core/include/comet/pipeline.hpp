#pragma once
// The 1F1B pipeline schedule (Narayanan et al. 2021), with interleaved virtual stages and
// uneven stages (Megatron-LM's first/last-stage layer counts).

#include "comet/spec.hpp"

namespace comet {

// Layers per pipeline stage. Stage 0 (the first, with the embedding) holds `first`, stage p-1
// (the last, with the LM head and the loss) holds `last`; of the p-2 middle stages, `mid_hi_count`
// hold `mid_hi` layers and the others `mid_lo`. With p == 1 the one stage holds every layer
// (first == last). `ok` is false when the strategy's layout cannot be built.
struct StageLayout {
    int p = 1;
    int v = 1;
    int first = 0, last = 0, mid_hi = 0, mid_lo = 0, mid_hi_count = 0;
    bool ok = false;
    [[nodiscard]] int max_layers() const noexcept;
    [[nodiscard]] constexpr int min_layers() const noexcept {
        int m = first < last ? first : last;
        if (p > 2) {
            const int mid = mid_hi_count < p - 2 ? mid_lo : mid_hi;
            m = mid < m ? mid : m;
        }
        return m;
    }
    [[nodiscard]] constexpr bool even() const noexcept {
        return p == 1 || (first == last && (p == 2 || (mid_hi == first && mid_lo == first)));
    }
};

// The layout of `layers` over pp x interleave virtual stages, as Megatron-LM builds it:
// - pipeline_first_layers / pipeline_last_layers > 0: those stages hold exactly that many (a
//   multiple of the interleave), the middle stages share the rest evenly;
// - else embedding_in_pipeline_split / loss_in_pipeline_split: the embedding and the loss count
//   as one layer each and every virtual stage holds (layers + those) / (pp x interleave);
// - else as evenly as possible: every virtual stage holds floor or ceil of layers / (pp x v),
//   the extra layers going to the middle stages first, then to the first and last stage's
//   other chunks, the first and last virtual stage (with the embedding and the loss) last.
[[nodiscard]] StageLayout stage_layout(int layers, const Strategy& s) noexcept;
// The model's layout: stage_layout of its layers, with its multi-token-prediction layers on
// the last stage (Megatron-LM's "mtp" entries after the last stage's layers; the automatic
// split does not count them, as Megatron's does not).
[[nodiscard]] StageLayout model_stage_layout(const ModelSpec& m, const Strategy& s) noexcept;

// Share of the layers that full recomputation recomputes: recompute_layers of each virtual
// stage's layers / (pp x interleave) (1 when recompute_layers is 0 or the recomputation is not
// full; 0 without recomputation).
[[nodiscard]] double full_recompute_share(int layers, const Strategy& s) noexcept;

// Fill and drain of 1F1B over stages whose microbatch times differ: every stage but the slowest
// idles once while a microbatch passes through the others, so the bubble is
// (sum of the stage times - the slowest) / v; with p equal stages (p-1)/v of one stage.
[[nodiscard]] double pipeline_bubble_s(double stage_sum_s, double slowest_s, int interleave) noexcept;
// Equal stages: (p-1)/v microbatch-times.
[[nodiscard]] double pipeline_bubble_s(int pp, int interleave, double microbatch_s) noexcept;

// Pipeline exchange exposed per microbatch on one rank, `one_s` being one message: each of its
// v chunks receives and sends once in forward and once in backward. Without interleaving the
// 1F1B exchanges block (Megatron-Core batches each send with its receive: batch_p2p_comm).
// With interleaving each chunk's transfer runs while the rank computes its next chunk
// (overlap_p2p_comm, which Megatron-Bridge turns on whenever vp > 1), so only what one chunk's
// forward (`chunk_fwd_s`) or backward (`chunk_bwd_s`) does not cover stays exposed.
[[nodiscard]] inline double pipeline_exchange_s(double one_s, int interleave, double chunk_fwd_s, double chunk_bwd_s) noexcept {
    if (interleave <= 1) return 2.0 * one_s;
    const double f = one_s > chunk_fwd_s ? one_s - chunk_fwd_s : 0.0;
    const double b = one_s > chunk_bwd_s ? one_s - chunk_bwd_s : 0.0;
    return interleave * (f + b);
}

// A lower bound of an iteration's pipeline time, built like timing() builds it: every stage
// takes at least its layers x `per_layer_s` + its ends (`first_s` on the first stage, `last_s`
// on the last, both with one stage) + `per_stage_s`; the slowest of those lower bounds paces m
// microbatches and the others fill and drain the pipeline.
[[nodiscard]] double pipeline_time_lower_bound(const StageLayout& layout, double per_layer_s, double first_s, double last_s,
                                               double per_stage_s, double microbatches) noexcept;

// Layer-microbatches whose activations pipeline rank `rank`, holding `stage_layers` layers,
// keeps at once. Without interleaving rank r runs p-r-1 warm-up forwards before its first
// backward, so it holds p-r microbatches; with v chunks it holds 2(p-r-1) + (v-1)p + 1 chunks of
// stage_layers / v layers; never more than all m microbatches.
[[nodiscard]] double held_layer_microbatches(double stage_layers, int pp, int interleave, int microbatches, int rank) noexcept;

// Even stages of L/p layers: the first rank (p microbatches, times 1 + (p-1)/(p v) when
// interleaved) and the last rank.
[[nodiscard]] double in_flight_layer_microbatches(int layers, int pp, int interleave, int microbatches) noexcept;
[[nodiscard]] double last_rank_layer_microbatches(int layers, int pp, int interleave, int microbatches) noexcept;

}  // namespace comet
