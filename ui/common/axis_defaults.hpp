#pragma once
// Sensible value ranges for a heatmap axis around the configuration being edited.

#include <optional>
#include <string>

#include "comet/sweep.hpp"

namespace comet::ui {

// Hardware and workload knobs: `steps` geometric values from a quarter to four times the
// current value (clamped to the knob's range). Parallelism degrees: powers of two up to the
// cluster size (context parallelism up to 64, expert tensor parallelism up to the scale-up
// domain); expert parallelism: the powers of two that divide the experts, and the expert count.
// ZeRO sharding group: 0 (whole group) and the powers of two that divide dp x cp. EP overlap:
// 0, 0.25, 0.5, 0.75, 0.9 and 1. Switches and enums: their few values. Microbatch: powers of
// two that divide the per-replica batch. The current value is always on the axis.
[[nodiscard]] Axis default_axis(Knob knob, const Config& config, int steps);

// A range the user sets for an axis (issue 40 item 8), in the knob's unit, from below to.
struct AxisRange {
    double from = 0;
    double to = 0;
    bool operator==(const AxisRange&) const = default;
};

// Why `range` cannot be an axis of `knob` ("must be below", the knob's own limits, a switch has
// no range), naming the knob, the values and what is allowed; empty when it can.
[[nodiscard]] std::string range_problem(Knob knob, const AxisRange& range);

// The axis over a user's range: a continuous knob gets `steps` geometric values from `from` to
// `to`; a whole-number knob that default_axis() steps in powers of two gets the powers of two
// inside the range (the current value too, where it lies inside); the others (expert degrees,
// sharding groups, fixed lists) their default values inside the range. A range with a problem,
// or one that holds no value, leaves default_axis().
[[nodiscard]] Axis ranged_axis(Knob knob, const Config& config, int steps, const AxisRange& range);

// The grid the explorer and the report sweep: `x` and `y` (one axis when they are the same
// knob) with default_axis() values around the configuration, or ranged_axis() over a user's
// range; `search` = best strategy per cell.
[[nodiscard]] SweepSpec sweep_around(const Config& config, Knob x, Knob y, int steps, bool search,
                                     const std::optional<AxisRange>& x_range = std::nullopt,
                                     const std::optional<AxisRange>& y_range = std::nullopt);

// Whether the axis' values form a geometric progression (drawn with log spacing).
[[nodiscard]] bool is_geometric(const std::vector<double>& values);

}  // namespace comet::ui
