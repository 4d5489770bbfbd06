#include "comet/search.hpp"

#include <algorithm>
#include <limits>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include "comet/check.hpp"
#include "comet/evaluate.hpp"
#include "comet/units.hpp"
#include "stages.hpp"

namespace comet {
namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

// The part of the space that shares one rank_work(): a (tp, pp, dp) split with a
// sequence-parallel choice, a microbatch and a recompute mode.
struct Group {
    int tp, pp, dp, microbatch;
    bool sp;
    Recompute recompute;
    std::uint64_t first_index;  // enumeration index of its first configuration
    std::uint32_t size;         // configurations in the group
};

std::vector<int> divisors(long long n) {
    std::vector<int> out;
    for (long long i = 1; i * i <= n; ++i)
        if (n % i == 0) {
            out.push_back(static_cast<int>(i));
            if (i != n / i) out.push_back(static_cast<int>(n / i));
        }
    std::sort(out.begin(), out.end());
    return out;
}

bool searched(const SearchOptions& o, Knob k) { return (o.knobs & knob_bit(k)) != 0; }

// Values of one knob: the base value when not searched, else the candidates.
template <class T>
std::vector<T> choices(const SearchOptions& o, Knob k, T base, std::initializer_list<T> all) {
    if (!searched(o, k)) return {base};
    return std::vector<T>(all);
}

// Inner knobs of a group, enumerated in a fixed order.
struct InnerSpace {
    std::vector<int> zero;
    std::vector<int> offload;  // bit 0 optimizer, 1 weights, 2 activations
    std::vector<bool> dp_overlap;
    std::vector<bool> tp_overlap;
    [[nodiscard]] std::uint32_t per_interleave(bool dp_gt_1) const {
        const auto z = dp_gt_1 ? zero.size() : 1;
        return static_cast<std::uint32_t>(z * offload.size() * dp_overlap.size() * tp_overlap.size());
    }
};

std::vector<int> interleave_choices(const SearchOptions& o, const Config& base, int pp) {
    if (!searched(o, Knob::interleave)) return {base.strategy.interleave};
    if (pp == 1 || base.model.layers % pp != 0) return {1};
    return divisors(base.model.layers / pp);
}

struct TopK {
    std::vector<Candidate> items;  // sorted best first; capacity reserved once
    std::vector<double> scores;
    std::size_t k = 1;
    [[nodiscard]] double bound() const noexcept { return items.size() < k ? infinity : scores.back(); }
    void offer(const Strategy& s, const Result& r, double score, std::uint64_t index) {
        if (items.size() == k && !(score < scores.back() || (score == scores.back() && index < items.back().index)))
            return;
        std::size_t pos = items.size();
        while (pos > 0 && (scores[pos - 1] > score || (scores[pos - 1] == score && items[pos - 1].index > index))) --pos;
        if (items.size() == k) {
            items.pop_back();
            scores.pop_back();
        }
        items.insert(items.begin() + static_cast<std::ptrdiff_t>(pos), Candidate{s, r, index});
        scores.insert(scores.begin() + static_cast<std::ptrdiff_t>(pos), score);
    }
};

struct Local {
    TopK top;
    SearchStats stats;
};

}  // namespace

std::uint64_t SearchStats::infeasible_total() const noexcept {
    std::uint64_t n = 0;
    for (auto v : infeasible) n += v;
    return n;
}

double objective_score(const Result& r, Objective o) noexcept {
    return o == Objective::mfu ? -r.mfu : r.iteration_s;
}

SearchResult search(const Config& base, const SearchOptions& opt, const SearchControl& ctl) {
    SearchResult out;
    const std::size_t k = static_cast<std::size_t>(std::max(1, opt.top_k));

    // Inputs other than the searched knobs must be valid; searched knobs start from 1.
    {
        Config probe = base;
        for (const auto& info : all_knobs())
            if (info.kind == KnobKind::strategy && searched(opt, info.knob)) set_knob(probe, info.knob, info.min);
        if (first_invalid_field(probe) >= 0) {
            out.stats.space = 1;
            out.stats.evaluated = 1;
            out.stats.infeasible[static_cast<std::size_t>(Infeasible::invalid_input)] = 1;
            return out;
        }
    }

    const long long gpus = accelerators_available(base);
    const Strategy& bs = base.strategy;
    InnerSpace inner;
    inner.zero = choices<int>(opt, Knob::zero_stage, bs.zero_stage, {0, 1, 2, 3});
    {
        const bool tier = base.node.expanded.capacity_gib > 0;
        const int base_mask = (bs.offload_optimizer ? 1 : 0) | (bs.offload_weights ? 2 : 0) | (bs.offload_activations ? 4 : 0);
        std::vector<int> masks{0};
        if (tier) masks = {0, 1, 2, 3, 4, 5, 6, 7};
        // A knob that is not searched keeps its base value in every mask.
        auto keep = [&](int mask, Knob knob, int bit) {
            return searched(opt, knob) || ((mask & bit) == (base_mask & bit));
        };
        for (int mask : tier ? masks : std::vector<int>{base_mask})
            if (keep(mask, Knob::offload_optimizer, 1) && keep(mask, Knob::offload_weights, 2) &&
                keep(mask, Knob::offload_activations, 4))
                inner.offload.push_back(mask);
    }
    inner.dp_overlap = searched(opt, Knob::dp_overlap) ? std::vector<bool>{true, false} : std::vector<bool>{bs.dp_overlap};
    inner.tp_overlap = searched(opt, Knob::tp_overlap) ? std::vector<bool>{false, true} : std::vector<bool>{bs.tp_overlap};
    const std::vector<Recompute> recomputes =
        choices<Recompute>(opt, Knob::recompute, bs.recompute, {Recompute::none, Recompute::selective, Recompute::full});

    // --- Enumerate the groups.
    std::vector<Group> groups;
    std::uint64_t index = 0;
    const std::vector<int> cluster_divisors = divisors(gpus);
    const std::vector<int> tps = searched(opt, Knob::tp) ? cluster_divisors : std::vector<int>{bs.tp};
    for (int tp : tps) {
        const std::vector<int> pps =
            searched(opt, Knob::pp) ? (gpus % tp == 0 ? divisors(gpus / tp) : std::vector<int>{}) : std::vector<int>{bs.pp};
        for (int pp : pps) {
            const long long tp_pp = static_cast<long long>(tp) * pp;
            std::vector<int> dps;
            if (!searched(opt, Knob::dp)) dps = {bs.dp};
            else if (tp_pp <= gpus && gpus % tp_pp == 0)
                dps = opt.all_accelerators ? std::vector<int>{static_cast<int>(gpus / tp_pp)} : divisors(gpus / tp_pp);
            for (int dp : dps) {
                const long long replica_batch = base.training.global_batch / dp;
                std::vector<int> mbs{bs.microbatch};
                if (searched(opt, Knob::microbatch)) {
                    mbs = base.training.global_batch % dp == 0 ? divisors(replica_batch) : std::vector<int>{1};
                    if (opt.max_microbatch > 0)
                        std::erase_if(mbs, [&](int b) { return b > opt.max_microbatch; });
                }
                const std::vector<bool> sps = searched(opt, Knob::sequence_parallel)
                                                  ? (tp > 1 ? std::vector<bool>{false, true} : std::vector<bool>{false})
                                                  : std::vector<bool>{bs.sequence_parallel};
                const auto n_v = static_cast<std::uint32_t>(interleave_choices(opt, base, pp).size());
                const std::uint32_t size = n_v * inner.per_interleave(dp > 1);
                for (bool sp : sps)
                    for (int mb : mbs)
                        for (Recompute rc : recomputes) {
                            groups.push_back(Group{tp, pp, dp, mb, sp, rc, index, size});
                            index += size;
                        }
            }
        }
    }
    out.stats.space = index;

    // --- Evaluate the groups in parallel.
    tbb::enumerable_thread_specific<Local> locals([k] {
        Local l;
        l.top.k = k;
        l.top.items.reserve(k + 1);
        l.top.scores.reserve(k + 1);
        return l;
    });
    std::atomic<std::uint64_t> done{0};
    std::atomic<bool> cancelled{false};
    const std::uint64_t total = groups.size();
    const double gpus_used_for_mfu = 0;  // filled per configuration via Result
    (void)gpus_used_for_mfu;

    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, groups.size(), 1), [&](const tbb::blocked_range<std::size_t>& range) {
        Local& local = locals.local();
        for (std::size_t gi = range.begin(); gi != range.end(); ++gi) {
            if (ctl.cancel && ctl.cancel->load(std::memory_order_relaxed)) {
                cancelled.store(true, std::memory_order_relaxed);
                return;
            }
            const Group& g = groups[gi];
            Config c = base;
            Strategy& s = c.strategy;
            s.tp = g.tp;
            s.pp = g.pp;
            s.dp = g.dp;
            s.microbatch = g.microbatch;
            s.sequence_parallel = g.sp;
            s.recompute = g.recompute;
            double a = 0, b = 0;
            if (const Infeasible why = rank_problem(c, a, b); why != Infeasible::none) {
                local.stats.evaluated += g.size;
                local.stats.infeasible[static_cast<std::size_t>(why)] += g.size;
            } else {
                const RankWork w = rank_work(c);
                std::uint64_t idx = g.first_index;
                const std::vector<int> vs = interleave_choices(opt, base, g.pp);
                const std::uint32_t per_v = inner.per_interleave(g.dp > 1);
                for (int v : vs) {
                    s.interleave = v;
                    for (std::size_t zi = 0; zi < (g.dp > 1 ? inner.zero.size() : 1); ++zi) {
                        s.zero_stage = g.dp > 1 ? inner.zero[zi] : (searched(opt, Knob::zero_stage) ? 0 : base.strategy.zero_stage);
                        for (int mask : inner.offload) {
                            s.offload_optimizer = mask & 1;
                            s.offload_weights = mask & 2;
                            s.offload_activations = mask & 4;
                            for (bool dpo : inner.dp_overlap) {
                                s.dp_overlap = dpo;
                                for (bool tpo : inner.tp_overlap) {
                                    s.tp_overlap = tpo;
                                    ++local.stats.evaluated;
                                    if (const Infeasible bad = split_problem(c, a, b); bad != Infeasible::none) {
                                        ++local.stats.infeasible[static_cast<std::size_t>(bad)];
                                    } else {
                                        const Result r = compose(c, w);
                                        if (!r.feasible) {
                                            ++local.stats.infeasible[static_cast<std::size_t>(r.reason)];
                                        } else {
                                            ++local.stats.feasible;
                                            local.top.offer(s, r, objective_score(r, opt.objective), idx);
                                        }
                                    }
                                    ++idx;
                                }
                            }
                        }
                    }
                    (void)per_v;
                }
            }
            const std::uint64_t n = done.fetch_add(1, std::memory_order_relaxed) + 1;
            if (ctl.progress) ctl.progress(n, total);
        }
    });

    // --- Merge thread-local results deterministically.
    TopK merged;
    merged.k = k;
    for (Local& l : locals) {
        for (std::size_t i = 0; i < l.top.items.size(); ++i)
            merged.offer(l.top.items[i].strategy, l.top.items[i].result, l.top.scores[i], l.top.items[i].index);
        out.stats.evaluated += l.stats.evaluated;
        out.stats.pruned += l.stats.pruned;
        out.stats.feasible += l.stats.feasible;
        for (std::size_t i = 0; i < out.stats.infeasible.size(); ++i) out.stats.infeasible[i] += l.stats.infeasible[i];
    }
    out.top = std::move(merged.items);
    out.cancelled = cancelled.load();
    return out;
}

}  // namespace comet
