#include "comet/search.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>
#include <numeric>
#include <tbb/parallel_for.h>
#include <tbb/combinable.h>
#include <tbb/parallel_sort.h>

#include "comet/check.hpp"
#include "comet/collectives.hpp"
#include "comet/compute.hpp"
#include "comet/evaluate.hpp"
#include "comet/pipeline.hpp"
#include "comet/workload.hpp"
#include "search/search_engine.hpp"

namespace comet {
namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();
// Lower bounds and exact scores are computed in different orders: never prune on rounding.
bool beyond(double lower_bound, double bound) noexcept { return lower_bound - std::abs(lower_bound) * 1e-9 > bound; }

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

// The k best candidates seen, best first. Capacity for up to 64 is reserved once, so offer()
// allocates only while a longer list (a large --top) grows.
struct TopK {
    std::vector<Candidate> items;
    std::vector<double> scores;
    std::size_t k = 1;

    explicit TopK(std::size_t k_) : k(k_) {
        items.reserve(std::min<std::size_t>(k, 64) + 1);
        scores.reserve(std::min<std::size_t>(k, 64) + 1);
    }
    [[nodiscard]] double bound() const noexcept { return items.size() < k ? infinity : scores.back(); }
    static bool better(double s1, std::uint64_t i1, double s2, std::uint64_t i2) noexcept { return s1 < s2 || (s1 == s2 && i1 < i2); }
    // Whether offer() would keep a candidate of this score and index.
    [[nodiscard]] bool accepts(double score, std::uint64_t index) const noexcept {
        return items.size() < k || better(score, index, scores.back(), items.back().index);
    }
    void offer(const Strategy& s, const Result& r, double score, std::uint64_t index) {
        if (!accepts(score, index)) return;
        std::size_t pos = items.size();
        while (pos > 0 && better(score, index, scores[pos - 1], items[pos - 1].index)) --pos;
        if (items.size() == k) {
            items.pop_back();
            scores.pop_back();
        }
        items.insert(items.begin() + static_cast<std::ptrdiff_t>(pos), Candidate{s, r, index});
        scores.insert(scores.begin() + static_cast<std::ptrdiff_t>(pos), score);
    }
};

// Lower bound of the iteration's compute over the pipeline stages of `layout` (interleave v
// at its largest where the layers split evenly for every v; pipeline_time_lower_bound).
// From the mean layer's pass times and the ends' extras (non-decreasing in each of them).
// `lay`: the model's stage layout at that v; `recompute_share`: full_recompute_share() at
// interleave 1 (partial recomputation recomputes the fewest layers at the smallest interleave).
double compute_bound(double fwd, double bwd, double recompute, double first, double last, const ModelSpec& m, const StageLayout& lay,
                     double recompute_share, int pp, double microbatches) noexcept {
    const double layer = fwd + bwd + recompute_share * recompute;
    if (!lay.ok) return microbatches * ((m.layers + m.mtp_layers) * layer + first + last) / pp;
    return pipeline_time_lower_bound(lay, layer, first, last, 0.0, microbatches);
}

void add(SearchStats& to, const SearchStats& from) noexcept {
    to.evaluated += from.evaluated;
    to.pruned += from.pruned;
    to.feasible += from.feasible;
    for (std::size_t i = 0; i < to.infeasible.size(); ++i) to.infeasible[i] += from.infeasible[i];
}

}  // namespace

// Per-thread scan state.
struct Scan {
    TopK top;
    SearchStats stats;
    double seed_bound = infinity;
    explicit Scan(std::size_t k) : top(k) {}
    [[nodiscard]] double bound() const noexcept { return std::min(seed_bound, top.bound()); }
};

std::uint64_t SearchStats::infeasible_total() const noexcept {
    std::uint64_t n = 0;
    for (auto v : infeasible) n += v;
    return n;
}

double objective_score(const Result& r, Objective o) noexcept { return o == Objective::mfu ? -r.mfu : r.iteration_s; }

Config SearchEngine::probe(const Config& base, const SearchOptions& options) noexcept {
    Config p = base;
    for (const auto& info : all_knobs())
        if (info.kind == KnobKind::strategy && searched(options, info.knob)) set_knob(p, info.knob, info.min);
    return p;
}

SearchEngine::SearchEngine(const Config& base, const SearchOptions& options) : base_(base), options_(options) {
    // Inputs other than the searched knobs must be valid; searched knobs are probed at their minimum.
    invalid_ = first_invalid_field(probe(base, options)) >= 0;
    if (!invalid_) enumerate();
}

SearchEngine::SearchEngine(const Config& base, const SearchOptions& options, const SearchEngine& same_memory)
    : base_(base), options_(options) {
    invalid_ = first_invalid_field(probe(base, options)) >= 0;
    if (invalid_) return;
    if (same_memory.invalid_ || !same_memory.group_list_) {
        enumerate();
        return;
    }
    // enumerate() reads only what the memory key keeps: its space is the other engine's.
    group_list_ = same_memory.group_list_;
    space_ = same_memory.space_;
    zero_ = same_memory.zero_;
    offload_ = same_memory.offload_;
    dp_overlap_ = same_memory.dp_overlap_;
    tp_overlap_ = same_memory.tp_overlap_;
    interleaves_ = same_memory.interleaves_;
}

SearchEngine::ClassKey SearchEngine::class_key(const Config& cell, const SearchOptions& options) noexcept {
    // The searched strategy knobs: probe() fixes them at their minimum.
    ClassKey key{probe(cell, options), false};
    key.valid = first_invalid_field(key.config) < 0;
    // Run-time-only fields: read by rank_comm() and timing(), which run() calls with the cell,
    // never by the constructor, enumerate(), the structural checks, rank_memory(), place()'s
    // memory terms, fits() or rank_compute(). Listed one by one, so that a new field is kept.
    const Config neutral;
    NodeSpec& n = key.config.node;
    n.scale_up.bandwidth_gbps = neutral.node.scale_up.bandwidth_gbps;
    n.scale_up.latency_us = neutral.node.scale_up.latency_us;
    n.scale_up.efficiency = neutral.node.scale_up.efficiency;  // not domain_size: shards_for() and placement read it
    n.scale_out.bandwidth_gbps = neutral.node.scale_out.bandwidth_gbps;
    n.scale_out.latency_us = neutral.node.scale_out.latency_us;
    n.scale_out.efficiency = neutral.node.scale_out.efficiency;
    n.expanded.bandwidth_gbps = neutral.node.expanded.bandwidth_gbps;  // not capacity, attach, pool_nodes: fits() reads them
    n.expanded.latency_us = neutral.node.expanded.latency_us;
    // The leaf-spine fabric: read only by the collectives' group geometry (collectives.cpp).
    n.scale_out.oversubscription = neutral.node.scale_out.oversubscription;
    n.scale_out.spine_latency_us = neutral.node.scale_out.spine_latency_us;
    n.scale_out.leaf_domains = neutral.node.scale_out.leaf_domains;
    n.power_kw = neutral.node.power_kw;
    key.config.strategy.ep_overlap = neutral.strategy.ep_overlap;  // never searched; rank_comm() reads it
    return key;
}

namespace {

// The run-time network fields of class_key() that a time reads (not power, and not ep_overlap,
// a strategy choice), in the order network_speed() ranks them, each as a speed where more is
// faster: bandwidths and efficiencies as they are, latencies and the spine's oversubscription
// negated; the scale-up domains per leaf as they are, a single tier (0) as infinitely many (a
// group that fits in a leaf never crosses the spine, collectives.cpp), so a larger leaf is
// never slower.
struct NetworkField {
    double (*speed)(const Config&);
    void (*set)(Config&, const Config&);  // copies the field from the second configuration
};
constexpr NetworkField network_fields[] = {
    {[](const Config& c) { return c.node.scale_out.bandwidth_gbps; },
     [](Config& c, const Config& r) { c.node.scale_out.bandwidth_gbps = r.node.scale_out.bandwidth_gbps; }},
    {[](const Config& c) { return -c.node.scale_out.latency_us; },
     [](Config& c, const Config& r) { c.node.scale_out.latency_us = r.node.scale_out.latency_us; }},
    {[](const Config& c) { return c.node.scale_out.efficiency; },
     [](Config& c, const Config& r) { c.node.scale_out.efficiency = r.node.scale_out.efficiency; }},
    {[](const Config& c) { return c.node.scale_up.bandwidth_gbps; },
     [](Config& c, const Config& r) { c.node.scale_up.bandwidth_gbps = r.node.scale_up.bandwidth_gbps; }},
    {[](const Config& c) { return -c.node.scale_up.latency_us; },
     [](Config& c, const Config& r) { c.node.scale_up.latency_us = r.node.scale_up.latency_us; }},
    {[](const Config& c) { return c.node.scale_up.efficiency; },
     [](Config& c, const Config& r) { c.node.scale_up.efficiency = r.node.scale_up.efficiency; }},
    {[](const Config& c) { return c.node.expanded.bandwidth_gbps; },
     [](Config& c, const Config& r) { c.node.expanded.bandwidth_gbps = r.node.expanded.bandwidth_gbps; }},
    {[](const Config& c) { return -c.node.expanded.latency_us; },
     [](Config& c, const Config& r) { c.node.expanded.latency_us = r.node.expanded.latency_us; }},
    {[](const Config& c) { return -std::max(1.0, c.node.scale_out.oversubscription); },
     [](Config& c, const Config& r) { c.node.scale_out.oversubscription = r.node.scale_out.oversubscription; }},
    {[](const Config& c) { return -c.node.scale_out.spine_latency_us; },
     [](Config& c, const Config& r) { c.node.scale_out.spine_latency_us = r.node.scale_out.spine_latency_us; }},
    {[](const Config& c) {
         const int leaf = c.node.scale_out.leaf_domains;
         return leaf > 0 ? static_cast<double>(leaf) : std::numeric_limits<double>::infinity();
     },
     [](Config& c, const Config& r) { c.node.scale_out.leaf_domains = r.node.scale_out.leaf_domains; }},
};
static_assert(std::size(network_fields) == std::tuple_size_v<SearchEngine::NetworkSpeed>);

}  // namespace

bool SearchEngine::no_faster(const Config& a, const Config& b) noexcept {
    // Each network field no faster in b, then set to a's; the rest (power aside) must be equal.
    Config t = b;
    bool worse = true;
    for (const NetworkField& f : network_fields) {
        worse = worse && f.speed(t) <= f.speed(a);
        f.set(t, a);
    }
    t.node.power_kw = a.node.power_kw;
    return worse && t == a;
}

SearchEngine::NetworkSpeed SearchEngine::network_speed(const Config& c) noexcept {
    NetworkSpeed key{};
    for (std::size_t i = 0; i < key.size(); ++i) key[i] = -network_fields[i].speed(c);
    return key;
}

Config SearchEngine::memory_key(const ClassKey& key) noexcept {
    // Compute rates: read by rank_compute() (the roofline) and score_bound(), which prepare()
    // recomputes for a donor's groups; rank_problem() reads only whether FP8 and FP4 are supported.
    Config c = key.config;
    const NodeSpec neutral;
    NodeSpec& n = c.node;
    n.matrix_fp16_tflops = neutral.matrix_fp16_tflops;
    n.matrix_fp8_tflops = n.matrix_fp8_tflops > 0 ? 1.0 : 0.0;
    n.matrix_fp4_tflops = n.matrix_fp4_tflops > 0 ? 1.0 : 0.0;
    n.vector_tflops = neutral.vector_tflops;
    n.gemm.max_fraction = neutral.gemm.max_fraction;
    n.gemm.tile_overhead_k = neutral.gemm.tile_overhead_k;
    n.gemm.launch_overhead_us = neutral.gemm.launch_overhead_us;
    n.hbm_bandwidth_gbps = neutral.hbm_bandwidth_gbps;
    n.hbm_efficiency = neutral.hbm_efficiency;
    return c;
}

SearchEngine::Shards SearchEngine::shards_for(const Group& g, int zero) const {
    Shards out;
    if (!searched(options_, Knob::zero_shard)) {
        out.add(base_.strategy.zero_shard);
        return out;
    }
    out.add(0);
    // Hierarchical sharding is tried with ZeRO-3 (HSDP), where it keeps the per-microbatch
    // gathers inside a node; ZeRO 1-2 move their states once per iteration and shard over all.
    // Node-local: the replicas that share the TP group's scale-up domain.
    const long long replicas = static_cast<long long>(g.dp) * g.cp;
    const int local = std::max(1, placement_domain(base_.node, base_.cluster.nodes) / g.tp);
    if (zero == 3 && local > 1 && local < replicas && replicas % local == 0) out.add(local);
    return out;
}

namespace {
// Orders SearchEngine::interleaves_ (by pipeline degree) for lower_bound.
constexpr auto below_pp = [](const auto& choice, int pp) { return choice.pp < pp; };
}  // namespace

const SearchEngine::PpChoice& SearchEngine::pp_choice(int pp) const noexcept {
    // enumerate() filled one entry for every pipeline degree of the space.
    return *std::lower_bound(interleaves_.begin(), interleaves_.end(), pp, below_pp);
}

const StageLayout& SearchEngine::PpChoice::layout(int v) const noexcept {
    return layouts[static_cast<std::size_t>(std::find(vs.begin(), vs.end(), v) - vs.begin())];
}

std::vector<int> SearchEngine::interleave_choices(int pp) const {
    if (!searched(options_, Knob::interleave)) return {base_.strategy.interleave};
    if (pp == 1 || base_.model.layers % pp != 0) return {1};
    return divisors(base_.model.layers / pp);
}

void SearchEngine::enumerate_switches() {
    const SearchOptions& o = options_;
    const Strategy& bs = base_.strategy;
    zero_ = searched(o, Knob::zero_stage) ? std::vector<int>{0, 1, 2, 3} : std::vector<int>{bs.zero_stage};
    {
        const int base_mask = (bs.offload_optimizer ? 1 : 0) | (bs.offload_weights ? 2 : 0) | (bs.offload_activations ? 4 : 0);
        const bool tier = base_.node.expanded.capacity_gib > 0;
        auto keep = [&](int mask, Knob knob, int bit) { return searched(o, knob) || (mask & bit) == (base_mask & bit); };
        for (int mask = 0; mask < (tier ? 8 : 1); ++mask)
            if (keep(mask, Knob::offload_optimizer, 1) && keep(mask, Knob::offload_weights, 2) && keep(mask, Knob::offload_activations, 4))
                offload_.push_back(mask);
        if (offload_.empty()) offload_.push_back(base_mask);  // offload without a tier: infeasible, still counted
    }
    dp_overlap_ = searched(o, Knob::dp_overlap) ? std::vector<char>{1, 0} : std::vector<char>{bs.dp_overlap};
    tp_overlap_ = searched(o, Knob::tp_overlap) ? std::vector<char>{0, 1} : std::vector<char>{bs.tp_overlap};
}

void SearchEngine::add_pp_choice(int pp) {
    const ModelSpec& m = base_.model;
    const auto known = std::lower_bound(interleaves_.begin(), interleaves_.end(), pp, below_pp);
    if (known == interleaves_.end() || known->pp != pp) {
        PpChoice choice{pp, interleave_choices(pp), {}, {}};
        // The model's stage layout at each (the strategy fields it reads are not searched).
        Strategy sv = base_.strategy;
        sv.pp = pp;
        for (int v : choice.vs) {
            sv.interleave = v;
            choice.layouts.push_back(model_stage_layout(m, sv));
        }
        // The compute bound's recomputed share of the layers: at the smallest interleave.
        sv.interleave = 1;
        for (Recompute r : {Recompute::none, Recompute::selective, Recompute::full}) {
            sv.recompute = r;
            choice.recompute_share[static_cast<std::size_t>(r)] = full_recompute_share(m.layers, sv);
        }
        interleaves_.insert(known, std::move(choice));
    }
}

void SearchEngine::enumerate() {
    std::vector<Group> list;
    const SearchOptions& o = options_;
    const Strategy& bs = base_.strategy;
    const long long gpus = accelerators_available(base_);

    enumerate_switches();
    const std::vector<Recompute> recomputes = searched(o, Knob::recompute)
                                                  ? std::vector<Recompute>{Recompute::none, Recompute::selective, Recompute::full}
                                                  : std::vector<Recompute>{bs.recompute};

    const ModelSpec& m = base_.model;
    std::uint64_t index = 0;
    // The same few numbers are factored again and again in the loops below: once each.
    std::map<long long, std::vector<int>> factored;
    auto divisors = [&](long long n) -> const std::vector<int>& {
        auto it = factored.find(n);
        if (it == factored.end()) it = factored.emplace(n, comet::divisors(n)).first;
        return it->second;
    };
    const std::vector<int> tps = searched(o, Knob::tp) ? divisors(gpus) : std::vector<int>{bs.tp};
    for (int tp : tps) {
        std::vector<int> cps{bs.cp};
        if (searched(o, Knob::cp)) {
            cps.clear();
            if (gpus % tp == 0)
                for (int cp : divisors(gpus / tp))
                    if (cp == 1 || (m.seq_len % (2LL * cp) == 0 && m.seq_len / cp >= o.min_tokens_per_cp_rank)) cps.push_back(cp);
        }
        for (int cp : cps) {
            const long long tp_cp = static_cast<long long>(tp) * cp;
            std::vector<int> pps{bs.pp};
            if (searched(o, Knob::pp)) pps = gpus % tp_cp == 0 ? divisors(gpus / tp_cp) : std::vector<int>{};
            for (int pp : pps) {
                add_pp_choice(pp);
                const long long tp_pp = tp_cp * pp;
                std::vector<int> dps{bs.dp};
                if (searched(o, Knob::dp)) {
                    dps.clear();
                    if (tp_pp <= gpus && gpus % tp_pp == 0)
                        dps = o.all_accelerators ? std::vector<int>{static_cast<int>(gpus / tp_pp)} : divisors(gpus / tp_pp);
                }
                for (int dp : dps) {
                    // Expert parallelism: divisors of the experts that divide tp x cp x dp.
                    std::vector<int> eps{bs.ep};
                    if (searched(o, Knob::ep)) {
                        eps = {1};
                        if (m.is_moe())
                            for (int e : divisors(m.experts))
                                if (e > 1 && (tp_cp * dp) % e == 0) eps.push_back(e);
                    }
                    std::vector<int> etps{bs.etp};
                    if (searched(o, Knob::etp)) {
                        etps = {1};
                        if (m.is_moe() && tp > 1 && m.expert_ffn_hidden % tp == 0) etps.push_back(tp);
                    }
                    std::vector<int> mbs{bs.microbatch};
                    if (searched(o, Knob::microbatch)) {
                        mbs = base_.training.global_batch % dp == 0 ? divisors(base_.training.global_batch / dp) : std::vector<int>{1};
                        if (o.max_microbatch > 0) std::erase_if(mbs, [&](int b) { return b > o.max_microbatch; });
                    }
                    std::vector<char> sps{bs.sequence_parallel};
                    if (searched(o, Knob::sequence_parallel)) sps = tp > 1 ? std::vector<char>{0, 1} : std::vector<char>{0};
                    const long long replicas = static_cast<long long>(dp) * cp;
                    // ZeRO matters only with replicas to shard over.
                    const bool zeros_all = replicas > 1 || !searched(o, Knob::zero_stage);
                    // Overlap switches are no-ops without the parallelism they overlap: not enumerated.
                    const auto overlaps =
                        static_cast<std::uint32_t>((replicas > 1 ? dp_overlap_.size() : 1) * (tp > 1 ? tp_overlap_.size() : 1));
                    for (int ep : eps)
                        for (int etp : etps) {
                            if (ep * etp > 1 && (tp_cp * dp) % (static_cast<long long>(ep) * etp) != 0) continue;
                            Group proto{tp, cp, pp, dp, ep, etp, 1, false, Recompute::none, 0, 0, 0, 0, overlaps, 0};
                            std::uint32_t inner = 0;
                            for (std::size_t zi = 0; zi < (zeros_all ? zero_.size() : 1); ++zi)
                                inner += static_cast<std::uint32_t>(shards_for(proto, zeros_all ? zero_[zi] : 0).size());
                            const auto per_v = static_cast<std::uint32_t>(inner * offload_.size()) * overlaps;
                            const auto size = static_cast<std::uint32_t>(pp_choice(pp).vs.size()) * per_v;
                            for (char sp : sps)
                                for (int mb : mbs)
                                    for (Recompute rc : recomputes) {
                                        list.push_back(
                                            Group{tp, cp, pp, dp, ep, etp, mb, sp != 0, rc, index, size, per_v, inner, overlaps, 0});
                                        index += size;
                                    }
                        }
                }
            }
        }
    }
    space_ = index;
    // Each group's entry of interleaves_ (complete only now: entries were inserted in order).
    for (Group& g : list) g.pp_choice = static_cast<std::uint32_t>(&pp_choice(g.pp) - interleaves_.data());
    group_list_ = std::make_shared<const std::vector<Group>>(std::move(list));
}

void SearchEngine::number_shapes() {
    // The work shapes and recomputation modes of the groups that fit (layer_compute() is shared
    // by the groups of one shape), numbered in enumeration order.
    auto shape_of = std::make_shared<std::vector<std::uint32_t>>(groups().size(), 0);
    std::map<LayerComputeKey, std::uint32_t> ids;
    Strategy s = base_.strategy;
    for (std::size_t gi = 0; gi < groups().size(); ++gi) {
        if (prep(gi).combos.empty()) continue;
        apply_group(s, groups()[gi]);
        (*shape_of)[gi] = ids.try_emplace(layer_compute_key(s), static_cast<std::uint32_t>(ids.size())).first->second;
    }
    shape_of_ = std::move(shape_of);
    shapes_ = static_cast<std::uint32_t>(ids.size());
    reset_shape_compute();
    shape_split_ = std::make_unique<ShapeSplit[]>(shapes_);
}

void SearchEngine::share_shapes(const SearchEngine& donor) {
    shape_of_ = donor.shape_of_;
    shapes_ = donor.shapes_;
    reset_shape_compute();
    shape_split_.reset();
}

RankCompute SearchEngine::roofline(const Config& c, std::size_t gi, const RankCompute& memory) const {
    const std::uint32_t shape = (*shape_of_)[gi];
    ShapeCompute& sc = shape_compute_[shape];
    std::call_once(sc.once, [&] {
        // Only an eagerly prepared engine keeps the split (for the lazy engines of its class).
        ShapeSplit* split = shape_split_ ? &shape_split_[shape] : nullptr;
        ::new (static_cast<void*>(&shape_value_[shape])) LayerCompute(layer_compute(c, split ? &split->split : nullptr));
        if (split) split->ready.store(true, std::memory_order_release);
    });
    return rank_compute(c, &memory, &shape_value_[shape]);
}

std::vector<SearchEngine::SplitBound> SearchEngine::split_bounds(const SearchEngine& donor, const RateSpeedups& sp) const {
    std::vector<SplitBound> out(sp.valid && donor.shape_split_ ? shapes_ : 0);
    for (std::size_t i = 0; i < out.size(); ++i) {
        const ShapeSplit& ss = donor.shape_split_[i];
        if (!ss.ready.load(std::memory_order_acquire)) continue;
        const LayerSplit& ls = ss.split;
        // A pass is at least its kernels' parts and at least the host's issue time (the mean of
        // maxima over the layer kinds is at least the maximum of the means).
        auto pass = [&sp](const TimeSplit& t, double host) noexcept {
            return std::max(t.lower_bound(sp), host > 0 ? host / sp.host_issue() : 0.0);
        };
        out[i] = {pass(ls.fwd, ls.host_fwd), pass(ls.bwd, ls.host_bwd), pass(ls.recompute, ls.host_recompute),
                  ls.first.lower_bound(sp),  ls.last.lower_bound(sp),   true};
    }
    return out;
}

double SearchEngine::split_time_bound(std::size_t gi, const std::vector<SplitBound>& bounds) const noexcept {
    const std::uint32_t shape = (*shape_of_)[gi];
    if (shape >= bounds.size() || !bounds[shape].ready) return 0.0;
    const SplitBound& b = bounds[shape];
    return group_bound(groups()[gi], b.fwd, b.bwd, b.recompute, b.first, b.last);
}

void SearchEngine::apply_group(Strategy& s, const Group& g) noexcept {
    s.tp = g.tp;
    s.cp = g.cp;
    s.ep = g.ep;
    s.etp = g.etp;
    s.pp = g.pp;
    s.dp = g.dp;
    s.microbatch = g.microbatch;
    s.sequence_parallel = g.sp;
    s.recompute = g.recompute;
}

void SearchEngine::for_each_configuration(const std::function<void(const Strategy&)>& visit) const {
    if (invalid_) return;
    Strategy s = base_.strategy;
    // The nesting of prepare() (interleaving, ZeRO stage, sharding group, offload) and of
    // scan_group() (data-parallel overlap, then tensor-parallel overlap): enumeration order.
    for (const Group& g : groups()) {
        apply_group(s, g);
        const long long replicas = static_cast<long long>(g.dp) * g.cp;
        const bool zeros_all = replicas > 1 || !searched(options_, Knob::zero_stage);
        const std::size_t n_dpo = replicas > 1 ? dp_overlap_.size() : 1;
        const std::size_t n_tpo = g.tp > 1 ? tp_overlap_.size() : 1;
        for (int v : interleaves_[g.pp_choice].vs) {
            s.interleave = v;
            for (std::size_t zi = 0; zi < (zeros_all ? zero_.size() : 1); ++zi) {
                s.zero_stage = zeros_all ? zero_[zi] : 0;
                for (int shard : shards_for(g, s.zero_stage)) {
                    s.zero_shard = shard;
                    for (int mask : offload_) {
                        s.offload_optimizer = (mask & 1) != 0;
                        s.offload_weights = (mask & 2) != 0;
                        s.offload_activations = (mask & 4) != 0;
                        for (std::size_t di = 0; di < n_dpo; ++di) {
                            s.dp_overlap = dp_overlap_[di] != 0;
                            for (std::size_t ti = 0; ti < n_tpo; ++ti) {
                                s.tp_overlap = tp_overlap_[ti] != 0;
                                visit(s);
                            }
                        }
                    }
                }
            }
        }
    }
}

double SearchEngine::score_bound(double time_s, const Group& g) const noexcept {
    if (options_.objective == Objective::time) return time_s;
    // Upper bound of MFU from a lower bound of time, as Result::mfu is computed (no bound
    // without a positive time).
    if (!(time_s > 0)) return -std::numeric_limits<double>::infinity();
    const Config& c = base_;
    const double peak = matrix_peak_tflops(c.node, c.training.precision);
    const double gpus = static_cast<double>(g.tp) * g.cp * g.pp * g.dp;
    const double flops = static_cast<double>(c.training.global_batch) * 3.0 * forward_gemm_flops_per_sequence(c.model);
    return -model_flops_utilization(flops, time_s, gpus, peak);
}

bool SearchEngine::prepare(const SearchControl& control, const SearchEngine* memory_donor) {
    if (memory_donor && !memory_donor->lazy_ && same_space(*memory_donor)) return prepare_from(control, *memory_donor);
    prepared_.clear();
    prepared_.resize(groups().size());  // storage only (ConstructLater), every element constructed here:
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, prepared_.size(), 512), [this](const tbb::blocked_range<std::size_t>& r) {
        for (std::size_t gi = r.begin(); gi != r.end(); ++gi) ::new (static_cast<void*>(&prepared_[gi])) Prepared();
    });
    std::atomic<std::uint64_t> done{0};
    tbb::combinable<SearchStats> rejected;  // summed per chunk: integer counts, in any order the same
    auto sink = [&rejected](const SearchStats& part) { add(rejected.local(), part); };
    const bool memory_done = for_each_group(control, &done, sink, [&](Config& c, std::size_t gi, SearchStats& rej) {
        const Group& g = groups()[gi];
        Prepared& p = prepared_[gi];
        const std::uint32_t n_overlap = g.overlaps;
        Strategy& s = c.strategy;
        apply_group(s, g);
        double a = 0, b = 0;
        p.problem = rank_problem(c, a, b);
        if (p.problem != Infeasible::none) {
            rej.evaluated += g.size;
            rej.infeasible[static_cast<std::size_t>(p.problem)] += g.size;
            return;
        }
        const std::vector<int>& vs = interleaves_[g.pp_choice].vs;
        if (base_.training.global_batch % (static_cast<long long>(g.dp) * g.microbatch) != 0) {
            // No choice of the group splits the batch: skip the memory work, but count each
            // interleaving's configurations under the reason evaluate() gives first (the
            // layout's checks come before the batch split's).
            p.problem = Infeasible::batch_split;
            for (int v : vs) {
                s.interleave = v;
                const Infeasible why = split_layout_problem(c, a, b, nullptr);
                rej.evaluated += g.per_v;
                rej.infeasible[static_cast<std::size_t>(why)] += g.per_v;
            }
            return;
        }
        // Structure and memory do not depend on what varies inside a class (networks,
        // HBM bandwidth) nor on the overlap switches: decide them once per inner choice.
        RankWork w;
        static_cast<RankCompute&>(w) = rank_memory(c);
        const bool zeros_all = static_cast<long long>(g.dp) * g.cp > 1 || !searched(options_, Knob::zero_stage);
        const std::size_t n_zero = zeros_all ? zero_.size() : 1;
        std::uint32_t offset = 0;
        Result verdict;  // fits() sets the reason every time: one for every inner choice
        for (int v : vs) {
            s.interleave = v;
            // The placement depends on the interleaving, and of the knobs varied below
            // only on the sharding group (place_sharding).
            s.zero_shard = 0;
            Placement pl = place(c, w);
            const Infeasible layout_why = split_layout_problem(c, a, b, &pl.layout);
            for (std::size_t zi = 0; zi < n_zero; ++zi) {
                s.zero_stage = zeros_all ? zero_[zi] : 0;
                for (int shard : shards_for(g, s.zero_stage)) {
                    s.zero_shard = shard;
                    place_sharding(s, pl);
                    for (int mask : offload_) {
                        s.offload_optimizer = (mask & 1) != 0;
                        s.offload_weights = (mask & 2) != 0;
                        s.offload_activations = (mask & 4) != 0;
                        Infeasible why = layout_why != Infeasible::none ? layout_why : split_sharding_problem(c, a, b);
                        if (why == Infeasible::none && !fits(c, w, pl, verdict, true)) why = verdict.reason;
                        if (why == Infeasible::none) {
                            p.combos.push_back(Combo{v, s.zero_stage, shard, mask, offset});
                        } else {
                            rej.evaluated += n_overlap;
                            rej.infeasible[static_cast<std::size_t>(why)] += n_overlap;
                        }
                        offset += n_overlap;
                    }
                }
            }
        }
        // The roofline is needed only where something fits (below, once the shapes are known).
        if (!p.combos.empty()) p.compute = std::make_unique<RankCompute>(static_cast<const RankCompute&>(w));
    });
    if (!memory_done) return false;
    rejected_ = SearchStats{};
    rejected.combine_each([this](const SearchStats& part) { add(rejected_, part); });
    number_shapes();
    return prepare_rooflines(control, nullptr, &done);
}

template <class Sink, class Body>
bool SearchEngine::for_each_group(const SearchControl& control, std::atomic<std::uint64_t>* done, Sink&& sink, Body&& body) {
    std::atomic<bool> cancelled{false};
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, groups().size(), 16), [&](const tbb::blocked_range<std::size_t>& r) {
        if (control.cancel && control.cancel->load(std::memory_order_relaxed)) {
            cancelled.store(true, std::memory_order_relaxed);
            return;
        }
        Config c = base_;
        SearchStats local;
        for (std::size_t gi = r.begin(); gi != r.end(); ++gi) body(c, gi, local);
        sink(local);
        if (done && control.progress) control.progress(done->fetch_add(r.size()) + r.size(), 2 * groups().size());
    });
    return !cancelled.load();
}

bool SearchEngine::prepare_rooflines(const SearchControl& control, const SearchEngine* donor, std::atomic<std::uint64_t>* done) {
    const bool ok = for_each_group(
        control, done, [](const SearchStats&) {},
        [&](Config& c, std::size_t gi, SearchStats&) {
            Prepared& p = prepared_[gi];
            if (p.combos.empty()) return;
            const Group& g = groups()[gi];
            apply_group(c.strategy, g);
            // The memory part: this engine's (prepare()) or, for the same model, training and
            // group, the donor's.
            const RankCompute rc = roofline(c, gi, donor ? *donor->prepared_[gi].compute : *p.compute);
            if (p.compute)
                *p.compute = rc;
            else
                p.compute = std::make_unique<RankCompute>(rc);
            p.time_bound = exact_time_bound(rc, g);
            p.lower_bound = score_bound(p.time_bound, g);
        });
    if (!ok) return false;
    finish_prepare();
    return true;
}

void SearchEngine::finish_prepare() {
    order_.clear();
    for (std::uint32_t gi = 0; gi < groups().size(); ++gi)
        if (!prep(gi).combos.empty()) order_.push_back(gi);
    std::stable_sort(order_.begin(), order_.end(), [&](std::uint32_t a, std::uint32_t b) { return score_lb(a) < score_lb(b); });
    position_.assign(groups().size(), 0);
    lb_at_.resize(order_.size());
    for (std::size_t i = 0; i < order_.size(); ++i) {
        position_[order_[i]] = static_cast<std::uint32_t>(i);
        lb_at_[i] = score_lb(order_[i]);
    }
    count_inner();
}

void SearchEngine::count_inner() {
    if (!lazy_) {
        inner_of_.assign(groups().size(), 0);
        for (const std::uint32_t gi : order_) inner_of_[gi] = prep(gi).combos.size() * groups()[gi].overlaps;
    }
    const std::vector<std::uint64_t>& inner = lazy_ ? memory_donor_->inner_of_ : inner_of_;
    inner_before_.assign(order_.size() + 1, 0);
    for (std::size_t i = 0; i < order_.size(); ++i) inner_before_[i + 1] = inner_before_[i] + inner[order_[i]];
}

bool SearchEngine::prepare_from(const SearchControl& control, const SearchEngine& donor) {
    // The donor decided structure and memory for the same space; only the roofline differs.
    prepared_.clear();
    prepared_.resize(groups().size());  // storage only (ConstructLater)
    share_shapes(donor);
    for (std::size_t gi = 0; gi < groups().size(); ++gi) {
        Prepared& p = *::new (static_cast<void*>(&prepared_[gi])) Prepared();
        const Prepared& d = donor.prepared_[gi];
        p.problem = d.problem;
        p.combos = d.combos;
    }
    rejected_ = donor.rejected_;  // what prepare() rejected is counted once, not revisited by every run()
    return prepare_rooflines(control, &donor, nullptr);
}

bool SearchEngine::same_space(const SearchEngine& e) const noexcept {
    return e.groups().size() == groups().size() && e.space_ == space_ &&
           (e.lazy_ ? e.memory_donor_->prepared_.size() : e.prepared_.size()) == groups().size();
}

double SearchEngine::group_bound(const Group& g, double fwd, double bwd, double recompute, double first, double last) const noexcept {
    const long long microbatches = base_.training.global_batch / (static_cast<long long>(g.dp) * g.microbatch);
    const PpChoice& pc = interleaves_[g.pp_choice];
    return compute_bound(fwd, bwd, recompute, first, last, base_.model, pc.layouts.back(),
                         pc.recompute_share[static_cast<std::size_t>(g.recompute)], g.pp, static_cast<double>(microbatches));
}

double SearchEngine::exact_time_bound(const RankCompute& rc, const Group& g) const noexcept {
    return group_bound(g, rc.layer.fwd, rc.layer.bwd, rc.layer.recompute, rc.first_extra, rc.last_extra);
}

bool SearchEngine::prepare_lazy(const SearchControl& control, const SearchEngine& memory_donor, const SearchEngine& bound_donor) {
    const double rho = compute_speedup_bound(bound_donor.base_.node, base_.node, base_.training.precision);
    if (memory_donor.lazy_ || !same_space(memory_donor) || !same_space(bound_donor) || !std::isfinite(rho))
        return prepare(control, &memory_donor);
    if (control.cancel && control.cancel->load(std::memory_order_relaxed)) return false;
    // The structure and memory verdicts stay the donor's (read through prep()); this engine
    // keeps only the bounds and, for the groups that fit, a slot for the roofline.
    memory_donor_ = &memory_donor;
    prepared_.clear();
    // The groups that fit are the donor's (order_ lists them); only their order changes.
    order_ = memory_donor.order_;
    // Two lower bounds of each group's compute, the larger kept: the bound donor's (exact where
    // it computed the roofline) over the largest rate speedup, and the memory donor's kernel
    // times part by part over each part's own speedup (on an HBM axis the GEMM part holds whole).
    const RateSpeedups sp = rate_speedups(compute_rates(memory_donor.base_.node, base_.training, base_.software),
                                          compute_rates(base_.node, base_.training, base_.software));
    share_shapes(memory_donor);  // (the split bounds read the shape numbering)
    const std::vector<SplitBound> split = split_bounds(memory_donor, sp);
    // A group's slot is its position in the memory donor's order (memory_donor.position_).
    const std::size_t slots = order_.size();
    bounds_.resize(slots);
    for (std::size_t i = 0; i < slots; ++i) {
        const std::uint32_t gi = order_[i];
        bounds_[i].time = std::max(bound_donor.group_time_bound(gi) / rho, split_time_bound(gi, split));
        bounds_[i].score = score_bound(bounds_[i].time, groups()[gi]);
    }
    lazy_ = std::make_unique<LazyCompute[]>(slots);
    lazy_value_.clear();
    lazy_value_.resize(slots);  // storage only (ConstructLater)
    rejected_ = memory_donor.rejected_;
    // Ties keep the enumeration order, as finish_prepare() leaves them. Sorted as (bound, group)
    // pairs side by side: the same order as comparing the bounds through the group index.
    std::vector<std::pair<double, std::uint32_t>> keyed(order_.size());
    for (std::size_t i = 0; i < order_.size(); ++i) keyed[i] = {score_lb(order_[i]), order_[i]};
    std::sort(keyed.begin(), keyed.end());
    lb_at_.resize(order_.size());
    for (std::size_t i = 0; i < order_.size(); ++i) {
        order_[i] = keyed[i].second;
        lb_at_[i] = keyed[i].first;
    }
    count_inner();
    return true;
}

const RankCompute& SearchEngine::group_compute(std::size_t gi) const {
    if (!lazy_) return *prepared_[gi].compute;
    const std::uint32_t slot = slot_of(gi);
    LazyCompute& l = lazy_[slot];
    if (l.done.load(std::memory_order_acquire)) return lazy_value_[slot];
    std::call_once(l.once, [&] {
        Config c = base_;
        apply_group(c.strategy, groups()[gi]);
        // Same model, training and group as the memory donor's: its memory part holds.
        const RankCompute& rc =
            *::new (static_cast<void*>(&lazy_value_[slot])) RankCompute(roofline(c, gi, *memory_donor_->prepared_[gi].compute));
        l.time_bound = exact_time_bound(rc, groups()[gi]);
        l.done.store(true, std::memory_order_release);
    });
    return lazy_value_[slot];
}

double SearchEngine::group_time_bound(std::size_t gi) const noexcept {
    if (!lazy_) return prepared_[gi].time_bound;
    const std::uint32_t slot = slot_of(gi);
    const LazyCompute& l = lazy_[slot];
    return l.done.load(std::memory_order_acquire) ? l.time_bound : bounds_[slot].time;
}

double compute_speedup_bound(const NodeSpec& from, const NodeSpec& to, Precision precision) noexcept {
    const ComputeRates a = compute_rates(from, precision), b = compute_rates(to, precision);
    constexpr double none = std::numeric_limits<double>::infinity();
    // Every op time is a max and sum of terms that scale with one rate each (rate_speedups());
    // the fields that no rate follows must be equal (memory_key() keeps them equal anyway).
    if (a.attention_backward != b.attention_backward || a.softmax_head_dim != b.softmax_head_dim || a.host_op_s != b.host_op_s) return none;
    const RateSpeedups s = rate_speedups(a, b);
    const double rho = std::max({1.0, s.gemm, s.attention, s.vector, s.hbm, s.launch});
    return std::isfinite(rho) ? rho : none;
}

void SearchEngine::scan_group(const Config& cell, std::size_t gi, Scan& scan, double* floor) const {
    const Group& g = groups()[gi];
    const Prepared& p = prep(gi);
    const RankCompute& pc = group_compute(gi);
    SearchStats& st = scan.stats;
    Config c = cell;
    Strategy& s = c.strategy;
    apply_group(s, g);
    const RankWork w = rank_comm(c, pc);
    const long long microbatches = c.training.global_batch / (static_cast<long long>(g.dp) * g.microbatch);
    const auto mbs = static_cast<double>(microbatches);
    // Lower bound of each stage's microbatch time: compute, the layer's exposed communication
    // with the TP overlap choice that exposes least (the EP and CP parts do not depend on the
    // knobs varied below), and one pipeline exchange per chunk (message time only), composed
    // as timing() composes stages.
    double pp_one = 0;
    if (g.pp > 1) {
        const bool split = pp_message_split(s);
        const double msg = split ? w.pp_bytes / g.tp : w.pp_bytes;
        const long long stride = static_cast<long long>(g.tp) * g.cp * g.dp;
        pp_one = p2p_s(msg, stride * g.pp <= placement_domain(c.node, c.cluster.nodes), w.tp_group);
    }
    const std::uint64_t n_overlap = g.overlaps;
    const std::size_t n_dpo = static_cast<long long>(g.dp) * g.cp > 1 ? dp_overlap_.size() : 1;
    const std::size_t n_tpo = g.tp > 1 ? tp_overlap_.size() : 1;
    const PpChoice& pp_layouts = interleaves_[g.pp_choice];
    int last_v = 0;
    bool v_pruned = false;
    Placement pl{};
    bool placed = false;  // pl holds this interleaving's placement
    double v_bound = 0;   // lower bound of the time of this interleaving's choices
    double least = infinity;
    for (const Combo& combo : p.combos) {
        if (combo.v != last_v) {
            last_v = combo.v;
            placed = false;
            Strategy sv = s;
            sv.interleave = combo.v;
            const StageLayout& lay = pp_layouts.layout(combo.v);
            const double rshare = full_recompute_share(c.model.layers, sv);
            const double layer_min = pc.layer.fwd + pc.layer.bwd + rshare * pc.layer.recompute +
                                     std::min(layer_exposure(w, rshare, 0).total, layer_exposure(w, rshare, 1).total);
            // The exchange's windows at their widest (the fullest chunk, every layer recomputed,
            // each window as long as a whole layer with its most exposed communication) hide the most.
            const double chunk = s.pp_overlap ? lay.max_layers() / static_cast<double>(combo.v) : 0.0;
            const PassTimes& lt = pc.layer;
            const double wide =
                chunk * (lt.fwd + lt.bwd + lt.recompute + std::max(layer_exposure(w, 1.0, 0).total, layer_exposure(w, 1.0, 1).total));
            const double pp_min = pipeline_exchange_s(pp_one, combo.v, wide, wide);
            v_bound = pipeline_time_lower_bound(lay, layer_min, pc.first_extra + w.tp_one, pc.last_extra + w.tp_one, pp_min, mbs);
            v_pruned = options_.prune && beyond(score_bound(v_bound, g), scan.bound());
        }
        if (v_pruned) {
            st.pruned += n_overlap;
            least = std::min(least, v_bound);
            continue;
        }
        s.interleave = combo.v;
        s.zero_stage = combo.zero;
        s.zero_shard = combo.shard;
        s.offload_optimizer = (combo.offload & 1) != 0;
        s.offload_weights = (combo.offload & 2) != 0;
        s.offload_activations = (combo.offload & 4) != 0;
        // The placement depends on the interleaving and, of the knobs varied here, only on
        // the sharding group (as in prepare()).
        if (!placed) {
            pl = place(c, w);
            placed = true;
        } else {
            place_sharding(s, pl);
        }
        Result r;
        bool memory_filled = false;
        // The traffic does not depend on the overlap switches: once for their variants.
        const Traffic tf = traffic(c, w, pl);
        std::uint64_t index = g.first_index + combo.offset;
        for (std::size_t di = 0; di < n_dpo; ++di) {
            s.dp_overlap = dp_overlap_[di] != 0;
            for (std::size_t ti = 0; ti < n_tpo; ++ti) {
                s.tp_overlap = tp_overlap_[ti] != 0;
                timing(c, w, pl, tf, r);
                ++st.evaluated;
                ++st.feasible;
                least = std::min(least, r.iteration_s);
                const double score = objective_score(r, options_.objective);
                if (scan.top.accepts(score, index)) {
                    // The memory breakdown (the verdict is known to be "fits"), only for what
                    // the top list keeps; timing() does not read it.
                    if (!memory_filled) fits(c, w, pl, r);
                    memory_filled = true;
                    scan.top.offer(s, r, score, index);
                }
                ++index;
            }
        }
    }
    if (floor && least < infinity) *floor = std::max(*floor, least);
}

SearchResult SearchEngine::run(const Config& cell, const std::vector<Strategy>& seeds, bool parallel, const SearchControl& control,
                               SearchFloors floors) const {
    SearchResult out;
    const std::size_t k = static_cast<std::size_t>(std::max(1, options_.top_k));
    out.stats.space = space_;
    if (invalid_) {
        out.stats.space = 1;
        out.stats.evaluated = 1;
        out.stats.infeasible[static_cast<std::size_t>(Infeasible::invalid_input)] = 1;
        return out;
    }

    // Seeds give a first bound: if k of them are feasible, the k-th best of the whole space is
    // no worse than the k-th best seed.
    double seed_bound = infinity;
    if (options_.prune && seeds.size() >= k) {
        std::vector<double> scores;
        for (const Strategy& st : seeds) {
            Config c = cell;
            c.strategy = st;
            const Result r = evaluate(c);
            if (r.feasible) scores.push_back(objective_score(r, options_.objective));
        }
        if (scores.size() >= k) {
            std::sort(scores.begin(), scores.end());
            seed_bound = scores[k - 1];
        }
    }

    // Bounds carried from an earlier cell (SearchFloors): read from `floor_in`, this cell's in `floor_out`.
    const std::vector<double>* floor_in = floors.in && floors.in->size() == order_.size() ? floors.in : nullptr;
    double* floor_out = nullptr;
    if (floors.out) {
        // In place when `in` and `out` are one vector: a group's bound is read before it is raised.
        if (!floor_in)
            floors.out->assign(order_.size(), 0.0);
        else if (floors.out != floor_in)
            *floors.out = *floor_in;
        floor_out = floors.out->data();
    }
    auto visit = [&](Scan& scan, std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            const std::uint32_t gi = order_[i];
            // Groups come in increasing lower bound: once one is out of reach, so is the rest.
            if (options_.prune && beyond(lb_at_[i], scan.bound())) {
                scan.stats.pruned += inner_before_[end] - inner_before_[i];
                return;
            }
            // A bound an earlier cell proved for this group (a faster network) holds here too.
            if (floor_in && options_.prune && beyond(score_bound((*floor_in)[i], groups()[gi]), scan.bound())) {
                scan.stats.pruned += inner_before_[i + 1] - inner_before_[i];
                continue;
            }
            // A lazily prepared group's bound was borrowed: its own, once its roofline is known.
            if (lazy_ && options_.prune) {
                static_cast<void>(group_compute(gi));
                if (beyond(score_bound(lazy_[slot_of(gi)].time_bound, groups()[gi]), scan.bound())) {
                    scan.stats.pruned += inner_before_[i + 1] - inner_before_[i];
                    continue;
                }
            }
            scan_group(cell, gi, scan, floor_out ? floor_out + i : nullptr);
        }
    };

    std::atomic<bool> cancelled{false};
    if (!parallel) {
        Scan scan(k);
        scan.seed_bound = seed_bound;
        visit(scan, 0, order_.size());
        out.top = std::move(scan.top.items);
        add(out.stats, scan.stats);
        add(out.stats, rejected_);
        return out;
    }

    // Parallel, with statistics that do not depend on the scheduling: order_ is cut into fixed
    // chunks (their number does not depend on the thread count), visited in waves of 1, 2, 4,
    // ... chunks. Every chunk of a wave starts from the bound of the waves before it (their
    // merged top k, and the seeds) and tightens it only with what it finds itself, so what a
    // chunk prunes is a function of the problem alone. (A per-thread top k, carried from chunk
    // to chunk, pruned whatever the chunks that thread happened to visit before allowed.)
    const std::size_t chunk = std::max<std::size_t>(1, order_.size() / 256);
    const std::size_t chunks = (order_.size() + chunk - 1) / chunk;
    std::vector<Scan> scans;
    scans.reserve(chunks);
    TopK merged(k);
    std::atomic<std::uint64_t> done{0};
    auto stopped = [&] {
        if (control.cancel && control.cancel->load(std::memory_order_relaxed)) cancelled.store(true, std::memory_order_relaxed);
        return cancelled.load(std::memory_order_relaxed);
    };
    for (std::size_t wave_begin = 0, wave_size = 1; wave_begin < chunks && !stopped(); wave_begin += wave_size, wave_size *= 2) {
        const std::size_t wave_end = std::min(chunks, wave_begin + wave_size);
        const double bound = std::min(seed_bound, merged.bound());
        // Groups come in increasing lower bound: once the first of a wave is out of reach, so is the rest.
        if (options_.prune && beyond(lb_at_[wave_begin * chunk], bound)) {
            out.stats.pruned += inner_before_[order_.size()] - inner_before_[wave_begin * chunk];
            if (control.progress) control.progress(order_.size(), order_.size());
            break;
        }
        scans.clear();
        for (std::size_t ci = wave_begin; ci < wave_end; ++ci) scans.emplace_back(k).seed_bound = bound;
        tbb::parallel_for(wave_begin, wave_end, [&](std::size_t ci) {
            if (stopped()) return;
            const std::size_t begin = ci * chunk, end = std::min(order_.size(), begin + chunk);
            visit(scans[ci - wave_begin], begin, end);
            if (control.progress) control.progress(done.fetch_add(end - begin) + (end - begin), order_.size());
        });
        for (const Scan& sc : scans) {
            for (std::size_t i = 0; i < sc.top.items.size(); ++i)
                merged.offer(sc.top.items[i].strategy, sc.top.items[i].result, sc.top.scores[i], sc.top.items[i].index);
            add(out.stats, sc.stats);
        }
    }
    add(out.stats, rejected_);
    out.top = std::move(merged.items);
    out.cancelled = cancelled.load();
    return out;
}

Candidate best_or_reason(const Config& base, const SearchResult& sr) {
    if (sr.found()) return sr.top.front();
    Candidate out;
    out.strategy = base.strategy;
    const auto& inf = sr.stats.infeasible;
    if (inf[static_cast<std::size_t>(Infeasible::invalid_input)] > 0) {
        out.result = evaluate(base);  // carries the offending field
        return out;
    }
    const auto most = std::max_element(inf.begin(), inf.end());
    out.result.feasible = false;
    out.result.reason = Infeasible::no_feasible_strategy;
    out.result.detail_a = static_cast<double>(most - inf.begin());
    out.result.detail_b = static_cast<double>(*most);
    return out;
}

namespace {
// A DLRM's strategy space is small: the data-parallel ranks (all accelerators, or with
// all_accelerators off every divisor of them that splits the batch), the tables' sharding, where
// the rows and their optimizer state live (the expanded tier only when the node has one) and the
// overlap of the MLPs' all-reduce. Each candidate is one evaluate(); unsearched knobs keep the
// base value; ties go to the first in enumeration order.
SearchResult search_dlrm(const Config& base, const SearchOptions& options, const SearchControl& control) {
    SearchResult out;
    const long long total = accelerators_available(base);
    std::vector<int> dps{base.strategy.dp};
    if (searched(options, Knob::dp) && total > 0 && total <= 10'000'000) {
        dps = {static_cast<int>(total)};
        if (!options.all_accelerators) dps = divisors(total);
    }
    const bool tier = base.node.expanded.capacity_gib > 0;
    auto values = [&](Knob k, int count, bool needs_tier_above_zero) {
        std::vector<int> v;
        if (!searched(options, k)) return std::vector<int>{static_cast<int>(get_knob(base, k))};
        for (int i = 0; i < count; ++i)
            if (i == 0 || !needs_tier_above_zero || tier) v.push_back(i);
        return v;
    };
    const std::vector<int> shardings = values(Knob::emb_sharding, 3, false);
    const std::vector<int> placements = values(Knob::emb_placement, 3, true);
    const std::vector<int> states = values(Knob::emb_state, 3, false);
    const std::vector<int> overlaps =
        searched(options, Knob::dp_overlap) ? std::vector<int>{1, 0} : std::vector<int>{base.strategy.dp_overlap ? 1 : 0};
    out.stats.space = dps.size() * shardings.size() * placements.size() * states.size() * overlaps.size();
    TopK top(static_cast<std::size_t>(std::max(1, options.top_k)));
    std::uint64_t index = 0;
    for (const int dp : dps)
        for (const int sharding : shardings)
            for (const int placement : placements)
                for (const int state : states)
                    for (const int overlap : overlaps) {
                        if (control.cancel && control.cancel->load(std::memory_order_relaxed)) {
                            out.cancelled = true;
                            out.top = std::move(top.items);
                            return out;
                        }
                        // Where "with the rows" already puts the state, the other choice names
                        // the same placement (state in HBM beside rows in HBM, in the tier beside
                        // rows in the tier): searched, only the first is tried.
                        const bool dup = (state == static_cast<int>(EmbeddingStateTier::hbm) &&
                                          placement == static_cast<int>(EmbeddingPlacement::hbm)) ||
                                         (state == static_cast<int>(EmbeddingStateTier::expanded) &&
                                          (!tier || placement == static_cast<int>(EmbeddingPlacement::expanded)));
                        if (searched(options, Knob::emb_state) && dup) continue;
                        Config c = base;
                        c.strategy.dp = dp;
                        set_knob(c, Knob::emb_sharding, sharding);
                        set_knob(c, Knob::emb_placement, placement);
                        set_knob(c, Knob::emb_state, state);
                        c.strategy.dp_overlap = overlap != 0;
                        const Result r = evaluate(c);
                        ++out.stats.evaluated;
                        if (control.progress) control.progress(out.stats.evaluated, out.stats.space);
                        if (!r.feasible) {
                            ++out.stats.infeasible[static_cast<std::size_t>(r.reason)];
                            ++index;
                            continue;
                        }
                        ++out.stats.feasible;
                        top.offer(c.strategy, r, objective_score(r, options.objective), index++);
                    }
    out.top = std::move(top.items);
    return out;
}
}  // namespace

std::vector<Strategy> search_space(const Config& base, const SearchOptions& options) {
    std::vector<Strategy> out;
    if (base.workload == Workload::dlrm) return out;
    const SearchEngine engine(base, options);
    engine.for_each_configuration([&](const Strategy& s) { out.push_back(s); });
    return out;
}

SearchResult search(const Config& base, const SearchOptions& options, const SearchControl& control) {
    if (base.workload == Workload::dlrm) return search_dlrm(base, options, control);
    SearchEngine engine(base, options);
    if (!engine.invalid() && !engine.prepare(control)) {
        SearchResult r;
        r.cancelled = true;
        r.stats.space = engine.space_size();
        return r;
    }
    return engine.run(base, {}, true, control);
}

}  // namespace comet
