#pragma once
// Sensible value ranges for a heatmap axis around the configuration being edited.

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

// The grid the explorer and the report sweep: `x` and `y` (one axis when they are the same
// knob) with default_axis() values around the configuration; `search` = best strategy per cell.
[[nodiscard]] SweepSpec sweep_around(const Config& config, Knob x, Knob y, int steps, bool search);

// Whether the axis' values form a geometric progression (drawn with log spacing).
[[nodiscard]] bool is_geometric(const std::vector<double>& values);

}  // namespace comet::ui
