#include "axis_defaults.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "comet/evaluate.hpp"

namespace comet::ui {
namespace {

std::vector<double> powers_of_two(double from, double to) {
    std::vector<double> v;
    for (double x = from; x <= to; x *= 2) v.push_back(x);
    return v;
}

// Expert-parallel degrees: the powers of two that divide the experts, and the expert count
// itself, up to `limit` accelerators; only 1 for a dense model.
std::vector<double> expert_degrees(int experts, double limit) {
    std::vector<double> v{1};
    if (experts <= 1) return v;
    for (int d = 2; d <= experts && d <= limit; d *= 2)
        if (experts % d == 0) v.push_back(d);
    if (experts <= limit && v.back() != experts) v.push_back(experts);
    return v;
}

// ZeRO sharding groups: 0 (the whole dp x cp group), then the powers of two below it that divide it.
std::vector<double> shard_groups(long long group) {
    std::vector<double> v{0};
    for (long long g = 1; g < group && g <= (1 << 20); g *= 2)
        if (group % g == 0) v.push_back(static_cast<double>(g));
    return v;
}

void ensure_contains(std::vector<double>& v, double x) {
    if (std::find(v.begin(), v.end(), x) == v.end()) {
        v.push_back(x);
        std::sort(v.begin(), v.end());
    }
}

}  // namespace

namespace {

// How default_axis() steps a knob: geometric values (continuous), powers of two, or a list.
enum class AxisKind { continuous, powers_of_two, listed };

AxisKind axis_kind(Knob knob) {
    switch (knob) {
        case Knob::tp:
        case Knob::pp:
        case Knob::dp:
        case Knob::cp:
        case Knob::etp:
        case Knob::interleave:
        case Knob::microbatch:
        case Knob::nodes:
        case Knob::accelerators_per_node:
        case Knob::scale_up_domain:
        case Knob::layers:
        case Knob::global_batch:
        case Knob::seq_len:
        case Knob::hidden:
            return AxisKind::powers_of_two;
        case Knob::ep:
        case Knob::zero_shard:
        case Knob::ep_overlap:
        case Knob::emb_sharding:
        case Knob::emb_placement:
        case Knob::emb_state:
        case Knob::emb_cache_hit_rate:
        case Knob::emb_cache_fraction:
        case Knob::recompute:
        case Knob::zero_stage:
        case Knob::sequence_parallel:
        case Knob::offload_optimizer:
        case Knob::offload_weights:
        case Knob::offload_activations:
        case Knob::dp_overlap:
        case Knob::tp_overlap:
            return AxisKind::listed;
        default:
            return AxisKind::continuous;
    }
}

std::string number_text(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

}  // namespace

Axis default_axis(Knob knob, const Config& c, int steps) {
    const KnobInfo& info = knob_info(knob);
    const double now = get_knob(c, knob);
    Axis axis{knob, {}};
    const double gpus = static_cast<double>(accelerators_available(c));
    // One rule says which knobs are continuous, here and in ranged_axis(): axis_kind().
    if (axis_kind(knob) == AxisKind::continuous) {
        const double base = now > 0 ? now : (knob == Knob::expanded_gib ? 256.0 : knob == Knob::expanded_gbps ? 64.0 : 1.0);
        const double from = std::max(base / 4, info.min);
        const double to = std::min(base * 4, info.max);
        // An odd count puts the current value exactly in the middle of the geometric range.
        axis.values = log_values(from, to, std::max(3, steps | 1));
    }
    switch (knob) {
        case Knob::tp:
        case Knob::pp:
        case Knob::dp:
            axis.values = powers_of_two(1, std::max(1.0, std::min(gpus, 512.0)));
            break;
        case Knob::cp:
            axis.values = powers_of_two(1, std::max(1.0, std::min(gpus, 64.0)));
            break;
        case Knob::ep:
            axis.values = expert_degrees(c.model.experts, std::max(1.0, std::min(gpus, 1024.0)));
            break;
        case Knob::etp:
            axis.values = powers_of_two(1, std::max(1.0, std::min({gpus, 16.0, static_cast<double>(c.node.scale_up.domain_size)})));
            break;
        case Knob::zero_shard:
            axis.values = shard_groups(static_cast<long long>(std::max(1, c.strategy.dp)) * std::max(1, c.strategy.cp));
            break;
        case Knob::ep_overlap:
            axis.values = {0, 0.25, 0.5, 0.75, 0.9, 1};
            break;
        case Knob::emb_sharding:
        case Knob::emb_placement:
        case Knob::emb_state:
            axis.values = {0, 1, 2};
            break;
        case Knob::emb_cache_hit_rate:
            axis.values = {0.5, 0.7, 0.8, 0.9, 0.95, 0.99};
            break;
        case Knob::emb_cache_fraction:
            axis.values = {0.01, 0.02, 0.05, 0.1, 0.2, 0.5};
            break;
        case Knob::interleave:
            axis.values = powers_of_two(1, 16);
            break;
        case Knob::microbatch: {
            const double replica = static_cast<double>(c.training.global_batch) / std::max(1, c.strategy.dp);
            axis.values = powers_of_two(1, std::max(1.0, std::min(replica, 64.0)));
            break;
        }
        case Knob::recompute:
            axis.values = {0, 1, 2};
            break;
        case Knob::zero_stage:
            axis.values = {0, 1, 2, 3};
            break;
        case Knob::sequence_parallel:
        case Knob::offload_optimizer:
        case Knob::offload_weights:
        case Knob::offload_activations:
        case Knob::dp_overlap:
        case Knob::tp_overlap:
            axis.values = {0, 1};
            break;
        case Knob::nodes:
        case Knob::accelerators_per_node:
        case Knob::scale_up_domain:
            axis.values = powers_of_two(1, std::max(1.0, now * 4));
            break;
        case Knob::layers:
        case Knob::global_batch:
        case Knob::seq_len:
        case Knob::hidden: {
            // Powers of two around the current value (these knobs have divisibility constraints).
            const double low = std::max(info.min, std::exp2(std::floor(std::log2(std::max(1.0, now / 4)))));
            axis.values = powers_of_two(low, std::min(info.max, now * 4));
            break;
        }
        default:
            break;  // continuous: above
    }
    if (info.integer) {
        for (double& x : axis.values) x = std::round(x);
        axis.values.erase(std::unique(axis.values.begin(), axis.values.end()), axis.values.end());
    }
    if (now >= info.min && now <= info.max &&
        (info.integer || knob == Knob::nodes || knob == Knob::ep_overlap || knob == Knob::emb_cache_hit_rate ||
         knob == Knob::emb_cache_fraction))
        ensure_contains(axis.values, now);
    if (axis.values.empty()) axis.values = {now};
    return axis;
}

bool is_geometric(const std::vector<double>& v) {
    if (v.size() < 3 || v.front() <= 0) return false;
    const double r = v[1] / v[0];
    if (!(r > 1.0001)) return false;
    for (std::size_t i = 2; i < v.size(); ++i)
        if (std::fabs(v[i] / v[i - 1] - r) > 1e-3 * r) return false;
    return true;
}

std::string range_problem(Knob knob, const AxisRange& r) {
    const KnobInfo& info = knob_info(knob);
    const std::string name = std::string(info.label) + " (" + std::string(info.id) + ")";
    const std::string given = " [" + number_text(r.from) + ", " + number_text(r.to) + "]";
    if (!std::isfinite(r.from) || !std::isfinite(r.to)) return name + given + ": both ends must be finite numbers";
    if (!(r.from < r.to)) return name + given + ": 'from' must be below 'to'";
    const std::string limits = " (" + number_text(info.min) + " to " + number_text(info.max) +
                               (info.unit.empty() ? std::string() : " " + std::string(info.unit)) + ")";
    if (info.integer && info.max - info.min <= 3 && axis_kind(knob) == AxisKind::listed)
        return name + ": a switch or a choice has no range; its axis shows every value";
    if (r.to < info.min || r.from > info.max) return name + given + ": outside the knob's values" + limits;
    if (axis_kind(knob) == AxisKind::continuous && !(r.from > 0)) return name + given + ": a geometric axis needs 'from' above 0";
    return {};
}

Axis ranged_axis(Knob knob, const Config& config, int steps, const AxisRange& r) {
    Axis axis = default_axis(knob, config, steps);
    if (!range_problem(knob, r).empty()) return axis;
    const KnobInfo& info = knob_info(knob);
    const double from = std::max(r.from, info.min);
    const double to = std::min(r.to, info.max);
    const double now = get_knob(config, knob);
    std::vector<double> values;
    switch (axis_kind(knob)) {
        case AxisKind::continuous:
            values = log_values(from, to, std::max(3, steps | 1));
            if (info.integer) {
                for (double& x : values) x = std::round(x);
                values.erase(std::unique(values.begin(), values.end()), values.end());
            }
            break;
        case AxisKind::powers_of_two:
            values = powers_of_two(std::max(1.0, std::exp2(std::ceil(std::log2(std::max(1.0, from))))), to);
            if (now >= from && now <= to) ensure_contains(values, now);
            break;
        case AxisKind::listed:
            for (double v : axis.values)
                if (v >= from && v <= to) values.push_back(v);
            break;
    }
    if (!values.empty()) axis.values = std::move(values);
    return axis;
}

SweepSpec sweep_around(const Config& config, Knob x, Knob y, int steps, bool search, const std::optional<AxisRange>& x_range,
                       const std::optional<AxisRange>& y_range) {
    SweepSpec spec;
    spec.x = x_range ? ranged_axis(x, config, steps, *x_range) : default_axis(x, config, steps);
    if (y != x) spec.y = y_range ? ranged_axis(y, config, steps, *y_range) : default_axis(y, config, steps);
    spec.search = search;
    return spec;
}

}  // namespace comet::ui
