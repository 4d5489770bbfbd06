#pragma once
// Exhaustive strategy search: every valid combination of the strategy knobs for one
// configuration, evaluated in parallel with TBB. Results and statistics are identical for any
// thread count and from run to run.

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "comet/knobs.hpp"
#include "comet/result.hpp"
#include "comet/spec.hpp"

namespace comet {

enum class Objective : std::uint8_t { time, mfu };

struct SearchOptions {
    Objective objective = Objective::time;
    KnobSet knobs = all_strategy_knobs;  // knobs searched; the others keep the base config's value
    bool all_accelerators = true;        // tp*pp*dp == the cluster's accelerators (else at most)
    int max_microbatch = 0;              // 0 = every divisor of the per-replica batch
    int top_k = 2;                       // best and runner-up by default
    bool prune = true;                   // skip groups a lower bound proves worse than the k-th best
    // Context parallelism is tried only while each CP rank keeps at least this many tokens
    // of a sequence (shorter chunks cannot hide the ring's key/value exchange).
    int min_tokens_per_cp_rank = 4096;
};

// Cancellation and progress. `progress` is called from worker threads (serialise inside).
struct SearchControl {
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(std::uint64_t done, std::uint64_t total)> progress;
};

struct Candidate {
    Strategy strategy;
    Result result;
    std::uint64_t index = 0;  // position in the enumeration (breaks ties deterministically)
};

struct SearchStats {
    std::uint64_t space = 0;      // configurations in the search space
    std::uint64_t evaluated = 0;  // configurations fully evaluated
    std::uint64_t pruned = 0;     // skipped because a lower bound proved them no better
    std::uint64_t feasible = 0;   // among evaluated
    std::array<std::uint64_t, static_cast<std::size_t>(Infeasible::count_)> infeasible{};  // by reason
    [[nodiscard]] std::uint64_t infeasible_total() const noexcept;
};

struct SearchResult {
    std::vector<Candidate> top;  // best first, at most top_k, feasible only
    SearchStats stats;
    bool cancelled = false;
    [[nodiscard]] bool found() const noexcept { return !top.empty(); }
};

// Lower is better: iteration time, or minus MFU.
[[nodiscard]] double objective_score(const Result& r, Objective o) noexcept;

[[nodiscard]] SearchResult search(const Config& base, const SearchOptions& options = {}, const SearchControl& control = {});

// Every strategy a search of a transformer's `base` considers, in its enumeration order, neither
// checked nor evaluated (empty for a DLRM or invalid inputs): for tests and tools that hold the
// search to evaluate(); the search itself does not call it.
[[nodiscard]] std::vector<Strategy> search_space(const Config& base, const SearchOptions& options = {});
// The best candidate of a search of `base`, or, when nothing fits, base's strategy with an
// infeasible result: the reason of invalid input (naming the field), else no_feasible_strategy
// with the most common reason in detail_a and its count in detail_b.
[[nodiscard]] Candidate best_or_reason(const Config& base, const SearchResult& sr);

}  // namespace comet
