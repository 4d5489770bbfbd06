#pragma once
// The search engine behind search() and searching sweeps. Internal to core.
//
// A search space is split into groups that share one RankCompute (a tp/pp/dp split with a
// sequence-parallel choice, a microbatch and a recompute mode); each group's inner knobs
// (interleaving, ZeRO, offload, overlap) are enumerated by compose() alone. Groups are visited
// in increasing order of a compute-only lower bound on their time; a group or an interleaving
// whose lower bound is worse than the k-th best found so far is skipped (pruned), which
// provably leaves the top k unchanged. Every configuration has a fixed enumeration index that
// breaks ties, so the top k is the same for any thread count and with or without pruning;
// what is pruned depends on the problem alone (fixed chunks in waves, see run()), so the
// statistics are the same for any thread count too.
//
// SearchEngine::prepare() depends only on the class key of its base configuration
// (class_key() below), so a sweep computes it once per class of cells with equal keys and runs
// each cell against it.

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <new>
#include <type_traits>
#include <functional>
#include <vector>

#include "comet/search.hpp"
#include "model/stages.hpp"

namespace comet {

// Lower bounds of each group's best iteration time, carried from one cell of a sweep class
// to the next (indexed like the visiting order, which the cells of a class share). `in`
// (optional) holds bounds valid in this cell: a group whose bound is beyond the k-th best
// found is skipped without timing it. `out` (optional) receives what this cell proves: `in`
// (or 0), raised for every group it scans to the least of its exact times and of the
// bounds that pruned its interleavings. Those bounds hold in every later cell whose
// network is no faster (no_faster()), because no strategy gets faster when a link gets
// slower (the invariant test moreResourcesNeverHurt checks it on random configurations).
struct SearchFloors {
    const std::vector<double>* in = nullptr;
    std::vector<double>* out = nullptr;
};

class SearchEngine {
public:
    SearchEngine(const Config& base, const SearchOptions& options);
    // The same, taking the enumeration of the space from an engine whose class has the same
    // memory key (memory_key()): enumerate() reads nothing else.
    SearchEngine(const Config& base, const SearchOptions& options, const SearchEngine& same_memory);

    // The class-key rule (docs/architecture.md). The key of a configuration is the
    // configuration with the fields that the constructor and prepare() do NOT read set to fixed
    // values: the strategy knobs the search varies (every evaluation overwrites them) and the
    // run-time-only fields listed in class_key() (networks, the expanded tier's bandwidth and
    // latency, power, ep_overlap), which only run() reads, from its cell. Every other field is
    // kept, so a field added to a spec struct splits classes until someone proves prepare()
    // ignores it and lists it there. Two configurations with equal keys (compared with the
    // defaulted Config::operator==) get identical engines; `valid` says whether the engine is
    // valid (validity also reads the run-time fields).
    struct ClassKey {
        Config config;
        bool valid = false;
        bool operator==(const ClassKey&) const = default;
    };
    [[nodiscard]] static ClassKey class_key(const Config& cell, const SearchOptions& options) noexcept;
    // Equal memory keys of two valid class keys: the same space and the same structural and
    // memory verdicts, so one engine can be the other's memory donor (prepare()). The key
    // neutralises the compute rates, which only the roofline reads (of the FP8 rate only
    // whether it is > 0 matters to the verdicts).
    [[nodiscard]] static Config memory_key(const ClassKey& key) noexcept;

    // Stage 1 for every group, in parallel; honours cancellation and reports progress.
    // Returns false when cancelled.
    // `memory_donor`: an engine prepared for the same space and memory (same model, training,
    // capacities and cluster, differing only in compute rates): its structural and memory
    // verdicts are reused, and only the roofline is computed again.
    bool prepare(const SearchControl& control, const SearchEngine* memory_donor = nullptr);
    // A sweep class after the first of its memory class: structure and memory from
    // `memory_donor` (prepared by prepare()), and the roofline computed only for the groups a
    // search reaches (once, whichever cell gets there first). The groups are ordered and
    // pruned by bounds derived from `bound_donor` (the class searched before, same memory key):
    // its compute bound (exact where it computed the roofline) divided by the most the compute
    // rates of this class can speed any op up (compute_speedup_bound), a lower bound of this
    // class's own. Falls back to prepare(control, &memory_donor) when the two cannot be
    // compared. Both donors must outlive the runs of this engine.
    bool prepare_lazy(const SearchControl& control, const SearchEngine& memory_donor, const SearchEngine& bound_donor);

    // `b` equals `a` except for run-time network fields (class_key()) that are no better in
    // `b`: bandwidths and efficiencies of the scale-up and scale-out links and the expanded
    // tier no higher, their latencies no lower, the spine no less oversubscribed, its latency
    // no lower, its leaves holding no more scale-up domains (power is not read by the time).
    // Then every strategy's iteration time in `b` is at least its time in `a`.
    [[nodiscard]] static bool no_faster(const Config& a, const Config& b) noexcept;
    // The same fields as a sort key, smaller first = faster (scale-out bandwidth first): cells
    // sorted by it chain as no_faster() allows where one network axis varies.
    using NetworkSpeed = std::array<double, 11>;
    [[nodiscard]] static NetworkSpeed network_speed(const Config& c) noexcept;

    // Searches `cell` (same class as the base). `seeds` are strategies evaluated first to
    // start pruning with a good bound (they only speed the search up). `parallel` spreads the
    // groups over threads; a sweep runs cells in parallel and each cell serially.
    [[nodiscard]] SearchResult run(const Config& cell, const std::vector<Strategy>& seeds, bool parallel, const SearchControl& control,
                                   SearchFloors floors = {}) const;

    [[nodiscard]] std::uint64_t space_size() const noexcept { return space_; }
    // Every configuration of the space in enumeration order (each group's strategy with its
    // interleaving, ZeRO stage, sharding group, offload and overlap choice), neither checked nor
    // evaluated: for tests that hold the search's counts to evaluate()'s.
    void for_each_configuration(const std::function<void(const Strategy&)>& visit) const;
    [[nodiscard]] bool invalid() const noexcept { return invalid_; }

private:
    struct Group {
        int tp, cp, pp, dp, ep, etp, microbatch;
        bool sp;
        Recompute recompute;
        std::uint64_t first_index;    // enumeration index of its first configuration
        std::uint32_t size;           // configurations in the group
        std::uint32_t per_v;          // configurations per interleaving choice
        std::uint32_t shards;         // ZeRO sharding-group choices (for ZeRO stages >= 1)
        std::uint32_t overlaps;       // overlap variants per inner choice (1 to 4)
        std::uint32_t pp_choice = 0;  // its pipeline degree's entry of interleaves_
    };
    // An inner choice that passes the structural and memory checks.
    struct Combo {
        int v;
        int zero;
        int shard;
        int offload;
        std::uint32_t offset;  // enumeration index of its first overlap variant, from the group's first
    };
    // The inner choices of a group that fit: built once by prepare(), then shared, not copied,
    // by every engine prepared from it (the cells of a sweep class).
    class ComboList {
    public:
        void push_back(const Combo& c) {
            if (!list_) list_ = std::make_shared<std::vector<Combo>>();
            list_->push_back(c);
        }
        [[nodiscard]] bool empty() const noexcept { return !list_ || list_->empty(); }
        [[nodiscard]] std::size_t size() const noexcept { return list_ ? list_->size() : 0; }
        [[nodiscard]] const Combo* begin() const noexcept { return list_ ? list_->data() : nullptr; }
        [[nodiscard]] const Combo* end() const noexcept { return list_ ? list_->data() + list_->size() : nullptr; }

    private:
        std::shared_ptr<std::vector<Combo>> list_;
    };
    // (What prepare() rejects is summed into rejected_ as it goes, not kept per group.)
    struct Prepared {
        Infeasible problem = Infeasible::none;
        std::unique_ptr<RankCompute> compute;  // only where something fits (about a fifth of a sweep's groups)
        double time_bound = 0;                 // compute-only lower bound of the iteration time
        double lower_bound = 0;                // ... of the score
        ComboList combos;                      // in enumeration order (so grouped by v)
    };

    // `base` with the searched strategy knobs at their minimum: what the constructor validates.
    [[nodiscard]] static Config probe(const Config& base, const SearchOptions& options) noexcept;
    void enumerate();
    void enumerate_switches();                                      // zero_, offload_, dp_overlap_, tp_overlap_ (enumerate()'s first part)
    void add_pp_choice(int pp);                                     // interleaves_'s entry for pp, when it has none yet
    static void apply_group(Strategy& s, const Group& g) noexcept;  // the group's part of a strategy
    bool prepare_from(const SearchControl& control, const SearchEngine& donor);
    // The rooflines and compute bounds of the groups that fit, then finish_prepare(); the memory
    // part is the donor's when given, else the one prepare() left in each group. `done` counts
    // the second half of prepare()'s progress.
    bool prepare_rooflines(const SearchControl& control, const SearchEngine* donor, std::atomic<std::uint64_t>* done);
    // body(c, gi, rejected) for every group, in parallel chunks (c: the base configuration, one
    // per chunk, for the body to apply the group to; `rejected`: the chunk's counts, handed to
    // sink(rejected) at its end); progress counts into `done` (of 2 x groups, the two halves of
    // prepare()). False when cancelled.
    template <class Sink, class Body>
    bool for_each_group(const SearchControl& control, std::atomic<std::uint64_t>* done, Sink&& sink, Body&& body);
    void finish_prepare();  // counts what prepare rejected, orders the groups
    // The interleavings tried at a pipeline degree of the space (interleave_choices()) with the
    // model's stage layout at each (model_stage_layout(), same order): computed once per degree
    // by enumerate(), sorted by degree; a group holds its entry's index (Group::pp_choice).
    struct PpChoice {
        int pp = 1;
        std::vector<int> vs;
        std::vector<StageLayout> layouts;
        std::array<double, 3> recompute_share{};                        // full_recompute_share() at interleave 1, by Recompute
        [[nodiscard]] const StageLayout& layout(int v) const noexcept;  // v: one of vs
    };
    [[nodiscard]] const PpChoice& pp_choice(int pp) const noexcept;
    [[nodiscard]] std::vector<int> interleave_choices(int pp) const;
    std::vector<PpChoice> interleaves_;
    // ZeRO sharding groups tried: the whole dp x cp group and, when searched and with ZeRO-3,
    // node-local (hierarchical) sharding. Fixed capacity: no allocation in the prepare loop.
    struct Shards {
        int values[2] = {0, 0};
        int count = 0;
        void add(int v) noexcept { values[count++] = v; }
        [[nodiscard]] const int* begin() const noexcept { return values; }
        [[nodiscard]] const int* end() const noexcept { return values + count; }
        [[nodiscard]] std::size_t size() const noexcept { return static_cast<std::size_t>(count); }
    };
    [[nodiscard]] Shards shards_for(const Group& g, int zero) const;
    // Times the group's inner choices in `cell`; `floor` (optional) is raised to the least
    // time or interleaving bound met (SearchFloors).
    void scan_group(const Config& cell, std::size_t gi, struct Scan& scan, double* floor = nullptr) const;
    // The group's structure and memory verdicts (a lazily prepared engine reads its donor's)
    // and the lower bound of its score that orders and prunes it.
    [[nodiscard]] const Prepared& prep(std::size_t gi) const noexcept { return lazy_ ? memory_donor_->prepared_[gi] : prepared_[gi]; }
    [[nodiscard]] double score_lb(std::size_t gi) const noexcept { return lazy_ ? bounds_[slot_of(gi)].score : prepared_[gi].lower_bound; }
    // A lazily prepared engine's slot of a group that fits: its position in the memory donor's order.
    [[nodiscard]] std::uint32_t slot_of(std::size_t gi) const noexcept { return memory_donor_->position_[gi]; }
    // The group's roofline: prepared, or computed on first use by a lazily prepared engine.
    [[nodiscard]] const RankCompute& group_compute(std::size_t gi) const;
    // The group's compute-only time bound: exact where the roofline is known.
    [[nodiscard]] double group_time_bound(std::size_t gi) const noexcept;
    // `e` was prepared (eagerly or lazily) for the same space of groups as this engine.
    [[nodiscard]] bool same_space(const SearchEngine& e) const noexcept;
    // compute_bound() of group g (with the base strategy's other fields) from the mean layer's
    // pass times and the ends' extras.
    [[nodiscard]] double group_bound(const Group& g, double fwd, double bwd, double recompute, double first, double last) const noexcept;
    // group_bound() of a group's roofline.
    [[nodiscard]] double exact_time_bound(const RankCompute& rc, const Group& g) const noexcept;
    [[nodiscard]] double score_bound(double time_s, const Group& g) const noexcept;
    // Lower bounds of each shape's pass times and extras on this engine's node: `donor`'s kernel
    // times of the shape split by rate, each part over its speedup in `sp` (TimeSplit). Empty
    // when the speedups are not valid; a shape the donor has not computed is not ready.
    struct SplitBound {
        double fwd = 0, bwd = 0, recompute = 0, first = 0, last = 0;
        bool ready = false;
    };
    [[nodiscard]] std::vector<SplitBound> split_bounds(const SearchEngine& donor, const RateSpeedups& sp) const;
    // compute_bound() of group gi from its shape's split bounds (0 when none is ready): a lower
    // bound of the exact one on this engine's node.
    [[nodiscard]] double split_time_bound(std::size_t gi, const std::vector<SplitBound>& bounds) const noexcept;

    Config base_;
    SearchOptions options_;
    bool invalid_ = false;
    std::uint64_t space_ = 0;
    // The space's groups, in enumeration order; shared by engines of one memory key.
    std::shared_ptr<const std::vector<Group>> group_list_;
    [[nodiscard]] const std::vector<Group>& groups() const noexcept {
        static const std::vector<Group> none;  // an invalid engine enumerates nothing
        return group_list_ ? *group_list_ : none;
    }
    // Elements constructed by prepare() in parallel: its ~30,000 groups of half a kilobyte are
    // fresh memory, whose first touch made a serial fill a fifth of the first class's time.
    template <class T>
    struct ConstructLater : std::allocator<T> {
        template <class U>
        struct rebind {
            using other = ConstructLater<U>;
        };
        ConstructLater() = default;
        template <class U>
        ConstructLater(const ConstructLater<U>&) noexcept {}
        template <class U>
        void construct(U*) noexcept {}  // resize() leaves the storage to the caller
        template <class U, class... A>
        void construct(U* p, A&&... a) {
            ::new (static_cast<void*>(p)) U(std::forward<A>(a)...);
        }
    };
    std::vector<Prepared, ConstructLater<Prepared>> prepared_;  // empty in a lazily prepared engine
    std::vector<std::uint32_t> order_;                          // feasible-so-far groups by increasing lower bound
    std::vector<std::uint32_t> position_;                       // an eagerly prepared engine's: each group's index in order_
    std::vector<double> lb_at_;                                 // score_lb() of order_[i], read in visiting order
    // Inner choices (with their overlap variants) of the groups before each position of order_,
    // and of all of them at the end: what skipping a run of groups prunes.
    std::vector<std::uint64_t> inner_before_;
    std::vector<std::uint64_t> inner_of_;  // per group (an eagerly prepared engine; lazy ones read their donor's)
    void count_inner();
    SearchStats rejected_;  // groups rejected by prepare() as a whole
    std::vector<int> zero_;
    std::vector<int> offload_;  // bit 0 optimizer, 1 weights, 2 activations
    std::vector<char> dp_overlap_;
    std::vector<char> tp_overlap_;
    // prepare_lazy(): the rooflines computed on demand, and where the memory parts come from.
    struct LazyCompute {
        std::once_flag once;
        std::atomic<bool> done{false};
        double time_bound = 0;
    };
    struct Bounds {
        double time = 0, score = 0;  // borrowed compute-only lower bounds
    };
    // layer_compute() once per work shape and recomputation mode: groups that differ only in
    // pp and dp share it (shape_of_ per group, numbered by number_shapes()). Each engine computes
    // its own (its compute rates may differ), on first use, whichever thread gets there first.
    struct ShapeCompute {
        std::once_flag once;
    };
    // An eagerly prepared engine's kernel times of each shape by bounding rate (what its lazy
    // classes bound their groups with, split_bounds()); none in a lazily prepared engine.
    struct ShapeSplit {
        LayerSplit split;
        std::atomic<bool> ready{false};
    };
    mutable std::unique_ptr<ShapeSplit[]> shape_split_;
    std::shared_ptr<const std::vector<std::uint32_t>> shape_of_;  // shared with the engines that share the numbering
    std::uint32_t shapes_ = 0;
    mutable std::unique_ptr<ShapeCompute[]> shape_compute_;
    // Constructed under each shape's once flag; storage left untouched until then (ConstructLater).
    mutable std::vector<LayerCompute, ConstructLater<LayerCompute>> shape_value_;
    void reset_shape_compute() {
        shape_compute_ = std::make_unique<ShapeCompute[]>(shapes_);
        shape_value_.clear();
        shape_value_.resize(shapes_);
    }
    void number_shapes();                          // after the memory verdicts of prepare()
    void share_shapes(const SearchEngine& donor);  // the donor's numbering (same space and verdicts)
    // The group's roofline: rank_compute() of `c` (the base with the group applied) from the
    // memory part `memory`, with its shape's layer compute.
    [[nodiscard]] RankCompute roofline(const Config& c, std::size_t gi, const RankCompute& memory) const;
    std::vector<Bounds> bounds_;  // per slot (slot_of())
    mutable std::unique_ptr<LazyCompute[]> lazy_;
    // Per slot, constructed under its once flag. The storage is left untouched until then
    // (ConstructLater), so the pages of the slots a search never reaches are never faulted in (a
    // sweep's lazy classes reach about a fifth); never destroyed element by element, hence:
    mutable std::vector<RankCompute, ConstructLater<RankCompute>> lazy_value_;
    static_assert(std::is_trivially_destructible_v<RankCompute> && std::is_trivially_destructible_v<LayerCompute>);
    const SearchEngine* memory_donor_ = nullptr;
};

// At most how many times faster any op runs on `to`'s compute rates than on `from`'s, for
// nodes that differ only in the fields memory_key() neutralises (peaks, GEMM fraction and tile
// overhead, launch overhead, HBM bandwidth and efficiency); infinity when no finite bound
// holds (a rate falls to zero, or other fields of the rates differ). >= 1.
[[nodiscard]] double compute_speedup_bound(const NodeSpec& from, const NodeSpec& to, Precision precision) noexcept;

}  // namespace comet
