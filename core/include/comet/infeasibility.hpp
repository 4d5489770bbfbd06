#pragma once
// Why a configuration cannot run, in a person's terms: the binding limit with its numbers and
// the nearest change of the strategy that makes it run. Not on the evaluation path (it
// evaluates a few dozen neighbours of the configuration).

#include <string>

#include "comet/result.hpp"
#include "comet/spec.hpp"

namespace comet {

struct InfeasibilityExplanation {
    // The binding limit with its numbers, e.g. "does not fit in HBM: needs 93.2 GiB per GPU,
    // has 78.0 GiB usable (80 GiB less 2 GiB reserved)".
    std::string limit;
    // The nearest feasible change, e.g. "recompute selective -> full fits (71.3 of 78.0 GiB
    // usable, 61.2 s per iteration)"; empty when no single strategy change helps (then `advice`).
    std::string nearest;
    Strategy nearest_strategy;               // valid when `nearest` is not empty
    std::string advice;                      // what to try when no single change helps
    [[nodiscard]] std::string text() const;  // limit, then nearest or advice, on two lines
};

// `c` evaluated to `r` (infeasible). Changes tried one at a time: recomputation, ZeRO stage,
// smaller microbatch, sequence parallelism, tp or pp doubled or halved against dp, offloads when
// the node has an expanded tier; the fastest one that fits is the nearest.
[[nodiscard]] InfeasibilityExplanation explain_infeasible(const Config& c, const Result& r);

// When no strategy fits (a search found nothing): the binding limit is memory if the leanest
// structurally valid strategy (tp dividing the heads within the scale-up domain, pp dividing the
// layers, dp the rest, full recomputation, ZeRO 3, microbatch 1) overflows, e.g. "no strategy fits
// in HBM: the leanest, tp8 pp16 dp3 mb1 recompute=full sp zero3, needs 93.2 GiB per GPU, has 78.0
// GiB usable"; else a lean candidate's rule with its numbers ("tp1 pp1 dp24 ...: dp x microbatch =
// 24, global batch = 1000"). A DLRM is tried on every accelerator (dp = all of them). Empty when
// something fits. Evaluates at most a few hundred strategies.
[[nodiscard]] std::string explain_no_fit(const Config& c);

}  // namespace comet
