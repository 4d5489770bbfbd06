#include "comet/fsdp.hpp"

#include <algorithm>

#include "comet/evaluate.hpp"

namespace comet {
namespace {

bool memory_verdict(Infeasible r) noexcept { return r == Infeasible::hbm_capacity || r == Infeasible::expanded_capacity; }

// `base` at data-parallel degree dp and `microbatch` sequences per microbatch, ZeRO-3, with
// as many microbatches per pipeline as the base has and a cluster just large enough.
Config at(const Config& base, int dp, long long microbatch, long long microbatches) {
    Config c = base;
    Strategy& s = c.strategy;
    s.zero_stage = 3;
    s.dp = dp;
    s.microbatch = static_cast<int>(microbatch);
    c.training.global_batch = static_cast<long long>(dp) * microbatch * microbatches;
    const long long gpus = accelerators_used(s);
    const long long per_node = std::max(1, c.node.accelerators);
    c.cluster.nodes = static_cast<int>(std::min<long long>((gpus + per_node - 1) / per_node, 1 << 30));
    return c;
}

}  // namespace

std::vector<FsdpPoint> fsdp_balance(const Config& base, std::span<const int> dps) {
    std::vector<FsdpPoint> out;
    out.reserve(dps.size());
    const Strategy& bs = base.strategy;
    const long long per_step = static_cast<long long>(std::max(1, bs.dp)) * std::max(1, bs.microbatch);
    const long long microbatches = std::max<long long>(1, base.training.global_batch / std::max<long long>(1, per_step));
    const double tokens_per_sequence = static_cast<double>(base.model.seq_len) / (static_cast<double>(bs.tp) * bs.cp);
    constexpr long long max_microbatch = 1 << 20;
    for (const int dp : dps) {
        FsdpPoint p;
        p.dp = dp;
        if (dp < 1) {
            p.reason = Infeasible::invalid_input;
            out.push_back(p);
            continue;
        }
        const Config one = at(base, dp, 1, microbatches);
        p.gpus = accelerators_used(one.strategy);
        const Result r = evaluate(one);
        if (!r.feasible && !memory_verdict(r.reason)) {
            p.reason = r.reason;
            out.push_back(p);
            continue;
        }
        // Compute and FSDP traffic of one microbatch of one sequence on the slowest rank.
        const double compute_mb = r.time.compute_s / std::max(1, r.microbatches);
        p.fsdp_comm_s = r.comm.dp_microbatch_s;
        p.compute_s_per_token = compute_mb / tokens_per_sequence;
        p.tokens_to_hide = p.compute_s_per_token > 0 ? p.fsdp_comm_s / p.compute_s_per_token : 0.0;
        // The largest microbatch that fits: doubling, then bisection between the last fit and
        // the first overflow (memory grows with the microbatch).
        if (r.feasible) {
            long long lo = 1, hi = 2;
            auto fits = [&](long long mb) { return evaluate(at(base, dp, mb, microbatches)).feasible; };
            while (hi <= max_microbatch && fits(hi)) {
                lo = hi;
                hi *= 2;
            }
            if (hi > max_microbatch) hi = max_microbatch + 1;
            while (hi - lo > 1) {
                const long long mid = lo + (hi - lo) / 2;
                (fits(mid) ? lo : hi) = mid;
            }
            p.max_microbatch = static_cast<int>(lo);
            p.max_tokens_hbm = static_cast<double>(lo) * tokens_per_sequence;
        }
        out.push_back(p);
    }
    return out;
}

std::vector<int> fsdp_default_dps(const Config& base) {
    const Strategy& s = base.strategy;
    const long long model_ranks = std::max<long long>(1, static_cast<long long>(s.tp) * s.cp * s.pp);
    const long long cluster_dp = std::max<long long>(1, accelerators_available(base) / model_ranks);
    const long long upper = std::clamp<long long>(cluster_dp, 256, 65536);
    std::vector<int> dps;
    for (long long d = 2; d <= upper; d *= 2) dps.push_back(static_cast<int>(d));
    if (cluster_dp >= 2 && cluster_dp <= upper && std::find(dps.begin(), dps.end(), cluster_dp) == dps.end()) {
        dps.push_back(static_cast<int>(cluster_dp));
        std::sort(dps.begin(), dps.end());
    }
    return dps;
}

}  // namespace comet
