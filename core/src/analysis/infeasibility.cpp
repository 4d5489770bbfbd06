#include "comet/infeasibility.hpp"

#include <functional>
#include <optional>
#include <vector>

#include "comet/evaluate.hpp"
#include "comet/report.hpp"
#include "comet/scenario.hpp"
#include "comet/memory.hpp"
#include "comet/units.hpp"

namespace comet {
namespace {

std::string gib(double bytes) { return format_printf("%.1f", units::bytes_to_gib(bytes)); }

bool is_capacity(Infeasible r) { return r == Infeasible::hbm_capacity || r == Infeasible::expanded_capacity; }

std::string limit_text(const Config& c, const Result& r) {
    if (r.reason != Infeasible::hbm_capacity) return explain(r);
    const double reserved = hbm_unusable_bytes(c.node, c.software);
    std::string less = format_printf("%g", c.software.hbm_reserved_gib) + " GiB reserved";
    if (c.software.hbm_allocator_margin > 0)
        less += " and a " + format_printf("%g", 100.0 * c.software.hbm_allocator_margin) + " % allocator margin";
    return "does not fit in HBM: needs " + gib(r.detail_a - reserved) + " GiB per GPU, has " + gib(r.detail_b - reserved) +
           " GiB usable (" + format_printf("%g", c.node.hbm_capacity_gib) + " GiB less " + less + ")";
}

struct Change {
    std::string what;
    std::function<bool(Strategy&)> apply;  // false: not applicable
};

std::vector<Change> changes(const Config& c) {
    std::vector<Change> out;
    const Strategy& s = c.strategy;
    auto set_recompute = [](Recompute to) { return [to](Strategy& t) { return t.recompute != to ? (t.recompute = to, true) : false; }; };
    out.push_back({"recompute " + std::string(to_string(s.recompute)) + " \u2192 selective", set_recompute(Recompute::selective)});
    out.push_back({"recompute " + std::string(to_string(s.recompute)) + " \u2192 full", set_recompute(Recompute::full)});
    for (int z = s.zero_stage + 1; z <= 3; ++z)
        out.push_back({"ZeRO " + std::to_string(s.zero_stage) + " \u2192 " + std::to_string(z), [z](Strategy& t) {
                           t.zero_stage = z;
                           return true;
                       }});
    if (s.microbatch > 1)
        out.push_back({"microbatch " + std::to_string(s.microbatch) + " \u2192 1", [](Strategy& t) {
                           t.microbatch = 1;
                           return true;
                       }});
    if (!s.sequence_parallel && s.tp > 1)
        out.push_back({"sequence parallelism on", [](Strategy& t) {
                           t.sequence_parallel = true;
                           return true;
                       }});
    auto trade = [](int Strategy::*from, int Strategy::*to, const char* from_name, const char* to_name, const Strategy& base) {
        return Change{std::string(to_name) + " " + std::to_string(base.*to) + " \u2192 " + std::to_string(base.*to * 2) + ", " + from_name +
                          " " + std::to_string(base.*from) + " \u2192 " + std::to_string(base.*from / 2),
                      [from, to](Strategy& t) {
                          if (t.*from % 2 != 0) return false;
                          t.*from /= 2;
                          t.*to *= 2;
                          return true;
                      }};
    };
    out.push_back(trade(&Strategy::dp, &Strategy::tp, "dp", "tp", s));
    out.push_back(trade(&Strategy::dp, &Strategy::pp, "dp", "pp", s));
    out.push_back(trade(&Strategy::pp, &Strategy::dp, "pp", "dp", s));
    out.push_back(trade(&Strategy::tp, &Strategy::dp, "tp", "dp", s));
    out.push_back(trade(&Strategy::pp, &Strategy::tp, "pp", "tp", s));
    out.push_back(trade(&Strategy::tp, &Strategy::pp, "tp", "pp", s));
    // The nearest tp (pp) that divides the heads (layers), dp taking up the difference.
    auto nearest_divisor = [&s](int Strategy::*knob, const char* name, int of, int per) {
        std::vector<Change> found;
        for (int step = 1; step <= 64; ++step) {
            for (const int v : {s.*knob - step, s.*knob + step}) {
                if (v < 1 || of % (v * per) != 0) continue;
                const long long rest = static_cast<long long>(s.dp) * (s.*knob);
                if (rest % v != 0) continue;
                const int dp = static_cast<int>(rest / v);
                found.push_back({std::string(name) + " " + std::to_string(s.*knob) + " \u2192 " + std::to_string(v) + ", dp " +
                                     std::to_string(s.dp) + " \u2192 " + std::to_string(dp),
                                 [knob, v, dp](Strategy& t) {
                                     t.*knob = v;
                                     t.dp = dp;
                                     return true;
                                 }});
            }
            if (!found.empty()) break;
        }
        return found;
    };
    for (Change& ch : nearest_divisor(&Strategy::pp, "pp", c.model.layers, std::max(1, s.interleave))) out.push_back(std::move(ch));
    for (Change& ch : nearest_divisor(&Strategy::tp, "tp", c.model.heads, 1)) out.push_back(std::move(ch));
    if (c.node.expanded.capacity_gib > 0) {
        out.push_back({"offload optimizer state", [](Strategy& t) { return !t.offload_optimizer && (t.offload_optimizer = true); }});
        out.push_back({"offload activations", [](Strategy& t) { return !t.offload_activations && (t.offload_activations = true); }});
        out.push_back({"offload weights", [](Strategy& t) { return !t.offload_weights && (t.offload_weights = true); }});
    }
    return out;
}

}  // namespace

std::string explain_no_fit(const Config& c) {
    const long long gpus = static_cast<long long>(c.cluster.nodes) * c.node.accelerators;
    if (c.workload == Workload::dlrm) {
        // A DLRM spreads its batch over every accelerator (dp = all of them, the default its
        // search starts from): if that breaks a rule, the rule is why nothing runs.
        if (gpus < 1 || gpus > 10'000'000) return {};
        Config t = c;
        t.strategy.dp = static_cast<int>(gpus);
        const Result r = evaluate(t);
        if (r.feasible || r.reason == Infeasible::invalid_input) return {};
        return std::string(is_capacity(r.reason) ? "no strategy fits in memory" : "no strategy fits") + ": on all " + std::to_string(gpus) +
               " accelerators (" + format_strategy(t.strategy, c.workload) + "), " + limit_text(t, r);
    }
    std::optional<std::pair<Strategy, Result>> leanest;
    std::optional<std::pair<Strategy, Result>> structural;  // the first lean candidate that breaks a rule
    for (int tp = 1; tp <= std::max(1, c.node.scale_up.domain_size); tp *= 2) {
        if (c.model.heads % tp != 0 || gpus % tp != 0) continue;
        for (int pp = 1; pp <= c.model.layers && pp <= gpus / tp; ++pp) {
            if (c.model.layers % pp != 0 || (gpus / tp) % pp != 0) continue;
            Config t = c;
            Strategy& s = t.strategy;
            s = Strategy{};
            s.tp = tp;
            s.pp = pp;
            s.dp = static_cast<int>(gpus / tp / pp);
            s.microbatch = 1;
            s.recompute = Recompute::full;
            s.sequence_parallel = tp > 1;
            s.zero_stage = 3;
            const Result r = evaluate(t);
            if (r.feasible) return {};  // something fits: not a memory limit
            if (r.reason != Infeasible::hbm_capacity) {
                if (!structural && r.reason != Infeasible::invalid_input) structural = std::pair{s, r};
                continue;
            }
            if (!leanest || r.detail_a < leanest->second.detail_a) leanest = std::pair{s, r};
        }
    }
    if (!leanest && structural)  // name the rule and its numbers, as comet-cli's search does
        return "no strategy fits: none is valid for this model and cluster size; for example " + format_strategy(structural->first) + ": " +
               explain(structural->second);
    if (!leanest)
        return "no strategy fits: no tp (a power of 2 within the scale-up domain) and pp divide the heads, the layers "
               "and the " +
               std::to_string(gpus) + " accelerators";
    const double reserved = hbm_unusable_bytes(c.node, c.software);
    return "no strategy fits in HBM: the leanest, " + format_strategy(leanest->first) + ", needs " +
           gib(leanest->second.detail_a - reserved) + " GiB per GPU, has " + gib(leanest->second.detail_b - reserved) + " GiB usable";
}

std::string InfeasibilityExplanation::text() const {
    if (!nearest.empty()) return limit + "\nNearest change that runs: " + nearest;
    return advice.empty() ? limit : limit + "\n" + advice;
}

InfeasibilityExplanation explain_infeasible(const Config& c, const Result& r) {
    InfeasibilityExplanation out;
    out.limit = limit_text(c, r);
    if (r.feasible) return out;
    if (r.reason == Infeasible::invalid_input) {
        out.advice = "Correct the field first.";
        return out;
    }
    double best = 0;
    for (const Change& ch : changes(c)) {
        Config t = c;
        if (!ch.apply(t.strategy)) continue;
        if (t.strategy.interleave > 1 && t.strategy.pp == 1) t.strategy.interleave = 1;
        const Result tr = evaluate(t);
        if (!tr.feasible || (!out.nearest.empty() && tr.iteration_s >= best)) continue;
        best = tr.iteration_s;
        const double reserved = hbm_unusable_bytes(c.node, c.software);
        out.nearest = ch.what + " runs (" + gib(tr.hbm.used_bytes() - reserved) + " of " + gib(tr.hbm.capacity_bytes - reserved) +
                      " GiB usable, " + format_printf("%.3g", tr.iteration_s) + " s per iteration)";
        out.nearest_strategy = t.strategy;
    }
    if (out.nearest.empty())
        out.advice =
            is_capacity(r.reason)
                ? "No single strategy change fits: Find Best Strategy (Ctrl+B) searches every one; else more nodes or more memory per GPU."
                : "No single strategy change runs: Find Best Strategy (Ctrl+B) searches every valid one.";
    return out;
}

}  // namespace comet
