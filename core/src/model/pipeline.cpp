#include "comet/pipeline.hpp"

#include <algorithm>

namespace comet {

StageLayout model_stage_layout(const ModelSpec& m, const Strategy& s) noexcept {
    StageLayout out = stage_layout(m.layers, s);
    if (out.ok && m.mtp_layers > 0) {
        out.last += m.mtp_layers;
        if (out.p == 1) out.first = out.mid_hi = out.mid_lo = out.last;
    }
    return out;
}

int StageLayout::max_layers() const noexcept {
    int m = std::max(first, last);
    if (p > 2) m = std::max(m, mid_hi_count > 0 ? mid_hi : mid_lo);
    return m;
}

StageLayout stage_layout(int layers, const Strategy& s) noexcept {
    StageLayout out;
    const int p = std::max(1, s.pp);
    const int v = std::max(1, s.interleave);
    out.p = p;
    out.v = v;
    const int middle = std::max(0, p - 2);
    auto set_middle = [&](long long rest, int stages) noexcept {
        // `rest` layers over `stages` middle stages, each a multiple of v.
        if (stages == 0) return rest == 0;
        if (rest <= 0 || rest % (static_cast<long long>(stages) * v) != 0) return false;
        out.mid_hi = out.mid_lo = static_cast<int>(rest / stages);
        out.mid_hi_count = stages;
        return true;
    };
    if (p == 1) {
        out.first = out.last = out.mid_hi = out.mid_lo = layers;
        out.ok = s.pipeline_first_layers == 0 && s.pipeline_last_layers == 0 && layers >= 1;
        return out;
    }
    if (s.pipeline_first_layers > 0 || s.pipeline_last_layers > 0) {
        // Megatron-LM: the stages without a given count share what the others leave.
        const int f = s.pipeline_first_layers, l = s.pipeline_last_layers;
        if (f % v != 0 || l % v != 0) return out;
        const int shared = p - (f > 0) - (l > 0);
        const long long rest = static_cast<long long>(layers) - f - l;
        if (shared == 0 ? rest != 0 : (rest <= 0 || rest % (static_cast<long long>(shared) * v) != 0)) return out;
        const int each = shared > 0 ? static_cast<int>(rest / shared) : 0;
        out.first = f > 0 ? f : each;
        out.last = l > 0 ? l : each;
        out.ok = set_middle(static_cast<long long>(each) * middle, middle) || middle == 0;
        return out;
    }
    const long long virtual_stages = static_cast<long long>(p) * v;
    if (s.embedding_in_pipeline_split || s.loss_in_pipeline_split) {
        const long long units = static_cast<long long>(layers) + s.embedding_in_pipeline_split + s.loss_in_pipeline_split;
        if (units % virtual_stages != 0) return out;
        const int per_stage = static_cast<int>(units / virtual_stages * v);
        out.first = per_stage - s.embedding_in_pipeline_split;
        out.last = per_stage - s.loss_in_pipeline_split;
        out.mid_hi = out.mid_lo = per_stage;
        out.mid_hi_count = middle;
        out.ok = out.first >= 1 && out.last >= 1;
        return out;
    }
    if (layers < virtual_stages) return out;  // a virtual stage without layers
    // Here virtual_stages <= layers fits an int: 32-bit division.
    const int vs32 = static_cast<int>(virtual_stages);
    const int base = layers / vs32;
    long long rem = layers % vs32;
    if (rem == 0) {
        out.first = out.last = out.mid_hi = out.mid_lo = base * v;
        out.mid_hi_count = middle;
        out.ok = true;
        return out;
    }
    out.first = out.last = out.mid_hi = out.mid_lo = base * v;
    const long long mid_slots = static_cast<long long>(middle) * v;
    if (rem <= mid_slots && middle > 0) {
        out.mid_lo += static_cast<int>(rem / middle);
        out.mid_hi_count = static_cast<int>(rem % middle);
        out.mid_hi = out.mid_lo + (out.mid_hi_count > 0 ? 1 : 0);
        if (out.mid_hi_count == 0) out.mid_hi_count = middle;
    } else {
        out.mid_lo = out.mid_hi = (base + 1) * v;
        out.mid_hi_count = middle;
        rem -= mid_slots;
        // The first and last stage's other chunks, then the first virtual stage.
        const long long ends = std::min<long long>(rem, 2LL * (v - 1));
        out.first += static_cast<int>((ends + 1) / 2);
        out.last += static_cast<int>(ends / 2);
        out.first += static_cast<int>(rem - ends);
    }
    out.ok = true;
    return out;
}

double full_recompute_share(int layers, const Strategy& s) noexcept {
    if (s.recompute == Recompute::none) return 0.0;
    if (s.recompute != Recompute::full || s.recompute_layers <= 0) return 1.0;
    const double chunk = static_cast<double>(layers) / (static_cast<double>(std::max(1, s.pp)) * std::max(1, s.interleave));
    return std::min(1.0, s.recompute_layers / chunk);
}

double pipeline_bubble_s(double stage_sum_s, double slowest_s, int interleave) noexcept {
    return std::max(0.0, stage_sum_s - slowest_s) / interleave;
}

double pipeline_bubble_s(int pp, int interleave, double microbatch_s) noexcept { return (pp - 1.0) / interleave * microbatch_s; }

double pipeline_time_lower_bound(const StageLayout& lay, double per_layer_s, double first_s, double last_s, double per_stage_s,
                                 double microbatches) noexcept {
    const int p = lay.p;
    const double first = lay.first * per_layer_s + first_s + (p == 1 ? last_s : 0.0) + per_stage_s;
    if (p == 1) return microbatches * first;
    const double last = lay.last * per_layer_s + last_s + per_stage_s;
    const double hi = lay.mid_hi * per_layer_s + per_stage_s;
    const double lo = lay.mid_lo * per_layer_s + per_stage_s;
    const int n_hi = p > 2 ? lay.mid_hi_count : 0;
    const int n_lo = p > 2 ? p - 2 - lay.mid_hi_count : 0;
    double slowest = std::max(first, last);
    if (n_hi > 0) slowest = std::max(slowest, hi);
    if (n_lo > 0) slowest = std::max(slowest, lo);
    const double sum = first + last + n_hi * hi + n_lo * lo;
    return microbatches * slowest + pipeline_bubble_s(sum, slowest, lay.v);
}

double held_layer_microbatches(double stage_layers, int pp, int interleave, int microbatches, int rank) noexcept {
    const double p = pp;
    const double v = interleave;
    if (interleave <= 1) return std::min<double>(microbatches, p - rank) * stage_layers;
    const double chunks = std::min<double>(static_cast<double>(microbatches) * v, 2.0 * (p - rank - 1.0) + (v - 1.0) * p + 1.0);
    return chunks * stage_layers / v;
}

double in_flight_layer_microbatches(int layers, int pp, int interleave, int microbatches) noexcept {
    return held_layer_microbatches(static_cast<double>(layers) / pp, pp, interleave, microbatches, 0);
}

double last_rank_layer_microbatches(int layers, int pp, int interleave, int microbatches) noexcept {
    return held_layer_microbatches(static_cast<double>(layers) / pp, pp, interleave, microbatches, pp - 1);
}

}  // namespace comet
