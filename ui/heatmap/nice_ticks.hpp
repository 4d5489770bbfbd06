#pragma once
// Round tick values ("nice numbers", Heckbert, Graphics Gems 1990) for the heatmap's axes and
// colour bar, and where a value falls between the cells of an axis. Pure numbers, no Qt.

#include <optional>
#include <span>
#include <vector>

namespace comet::ui {

// The smallest step of 1, 2, 2.5 or 5 x 10^k that is at least `raw` (raw > 0).
[[nodiscard]] double nice_step(double raw);
// Multiples of one nice step inside [lo, hi], at most max_count (>= 2) of them: 400, 500, ... 800.
[[nodiscard]] std::vector<double> linear_nice_ticks(double lo, double hi, int max_count);
// 1, 2 and 5 x 10^k inside [lo, hi] (0 < lo), else powers of ten (every one, every other, ...),
// at most max_count of them; empty when no power of ten lies inside. Dense: first try every
// 1..9 x 10^k, then 1, 2, 3 and 5 x 10^k.
[[nodiscard]] std::vector<double> log_nice_ticks(double lo, double hi, int max_count, bool dense = false);
// Ticks for an axis: log_nice_ticks (dense) on a log axis, unless it gives fewer than two (a range of
// less than a decade), then linear_nice_ticks; linear_nice_ticks on a linear axis.
[[nodiscard]] std::vector<double> nice_ticks(double lo, double hi, int max_count, bool log);
// True when v has one significant digit, or two ending in 5 (0.25, 1.5, 80, 1000, 2500): not
// 510, 606 or 6.25. 0 is round.
[[nodiscard]] bool is_round(double v);
// Where v lies on an axis whose cells have these (finite, strictly monotone) values: i + t for a
// value between cells i and i + 1, t interpolated linearly or, on a log axis, in log space;
// nullopt outside the first and last value or when the values are not strictly monotone.
[[nodiscard]] std::optional<double> fractional_index(std::span<const double> values, double v, bool log);

}  // namespace comet::ui
