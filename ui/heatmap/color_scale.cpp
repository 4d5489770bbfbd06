#include "color_scale.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "heatmap/nice_ticks.hpp"

namespace comet::ui {
namespace {

struct Rgb {
    int r, g, b;
};

// matplotlib's viridis (van der Walt and Smith, CC0) sampled at 33 evenly spaced points.
constexpr std::array<Rgb, 33> viridis{{
    {68, 1, 84},    {71, 13, 96},   {72, 24, 106},  {72, 35, 116},  {71, 45, 123},  {69, 55, 129},  {66, 64, 134},
    {62, 73, 137},  {59, 82, 139},  {55, 91, 141},  {51, 99, 141},  {47, 107, 142}, {44, 114, 142}, {41, 122, 142},
    {38, 130, 142}, {35, 137, 142}, {33, 145, 140}, {31, 151, 139}, {31, 159, 136}, {33, 166, 133}, {39, 173, 129},
    {49, 181, 123}, {61, 188, 116}, {76, 194, 108}, {92, 200, 99},  {110, 206, 88}, {129, 211, 77}, {149, 216, 64},
    {170, 220, 50}, {192, 223, 37}, {213, 226, 26}, {234, 229, 26}, {253, 231, 37},
}};

constexpr double log_threshold_decades = 1.5;

// Okabe and Ito (2008), "Color universal design": distinct for the common colour-vision
// deficiencies; black is left out (the markers are dark).
constexpr std::array<Rgb, 7> okabe_ito{{
    {230, 159, 0},
    {86, 180, 233},
    {0, 158, 115},
    {240, 228, 66},
    {0, 114, 178},
    {213, 94, 0},
    {204, 121, 167},
}};

double segment_distance(const QColor& c, const Rgb& a, const Rgb& b) {
    const double d[3] = {double(b.r - a.r), double(b.g - a.g), double(b.b - a.b)};
    const double p[3] = {c.red() - double(a.r), c.green() - double(a.g), c.blue() - double(a.b)};
    const double len2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    const double t = len2 > 0 ? std::clamp((p[0] * d[0] + p[1] * d[1] + p[2] * d[2]) / len2, 0.0, 1.0) : 0.0;
    double sum = 0;
    for (int i = 0; i < 3; ++i) sum += (p[i] - t * d[i]) * (p[i] - t * d[i]);
    return std::sqrt(sum);
}

}  // namespace

ColorScale::ColorScale(std::span<const double> values, bool higher_is_better) : higher_is_better_(higher_is_better) {
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    for (double v : values) {
        if (!std::isfinite(v)) continue;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    if (lo > hi) return;
    empty_ = false;
    min_ = lo;
    max_ = hi;
    log_ = lo > 0 && std::log10(hi / lo) > log_threshold_decades;
}

ColorScale::ColorScale(double min, double max, bool higher_is_better, bool log)
    : min_(std::min(min, max)),
      max_(std::max(min, max)),
      log_(log && min > 0 && max > 0),
      higher_is_better_(higher_is_better),
      empty_(!std::isfinite(min) || !std::isfinite(max)) {}

ColorScale ColorScale::categorical(int count) {
    ColorScale s;
    if (count < 1) return s;
    s.empty_ = false;
    s.categories_ = count;
    s.min_ = 0;
    s.max_ = count - 1;
    return s;
}

QColor ColorScale::category_color(int index) {
    if (index < 0) return {};
    if (index < static_cast<int>(okabe_ito.size())) {
        const Rgb& c = okabe_ito[static_cast<std::size_t>(index)];
        return QColor(c.r, c.g, c.b);
    }
    const int grey = 200 - 30 * ((index - static_cast<int>(okabe_ito.size())) % 4);  // "Other" and beyond
    return QColor(grey, grey, grey);
}

double ColorScale::normalized(double v) const {
    if (std::isnan(v) || empty_) return std::numeric_limits<double>::quiet_NaN();
    if (categories_ > 0) return std::clamp((std::round(v) + 0.5) / categories_, 0.0, 1.0);  // the block's middle
    if (!(max_ > min_)) return 0.5;
    if (log_) {
        if (!(v > 0)) return 0.0;
        return std::clamp(std::log(v / min_) / std::log(max_ / min_), 0.0, 1.0);
    }
    return std::clamp((v - min_) / (max_ - min_), 0.0, 1.0);
}

QColor ColorScale::color(double v) const {
    const double t = normalized(v);
    if (std::isnan(t)) return {};
    return color_at(t);
}

QColor ColorScale::color_at(double t) const {
    if (categories_ > 0) return category_color(std::clamp(static_cast<int>(t * categories_), 0, categories_ - 1));
    return palette(higher_is_better_ ? t : 1.0 - t);
}

QColor ColorScale::palette(double t) {
    const double x = std::clamp(t, 0.0, 1.0) * static_cast<double>(viridis.size() - 1);
    const auto i = std::min(static_cast<std::size_t>(x), viridis.size() - 2);
    const double f = x - static_cast<double>(i);
    const Rgb& a = viridis[i];
    const Rgb& b = viridis[i + 1];
    auto mix = [f](int p, int q) { return static_cast<int>(std::lround(p + (q - p) * f)); };
    return QColor(mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b));
}

double ColorScale::palette_distance(const QColor& c) {
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i + 1 < viridis.size(); ++i) best = std::min(best, segment_distance(c, viridis[i], viridis[i + 1]));
    return best;
}

std::vector<double> ColorScale::ticks(int max_count) const {
    if (empty_ || max_count < 1) return {};
    if (categories_ > 0) {  // every category is a tick (labels that collide are dropped when painting)
        std::vector<double> all(static_cast<std::size_t>(categories_));
        for (int i = 0; i < categories_; ++i) all[static_cast<std::size_t>(i)] = i;
        return all;
    }
    if (!(max_ > min_) || max_count == 1) return {min_};
    auto t = log_ ? log_nice_ticks(min_, max_, max_count) : linear_nice_ticks(min_, max_, max_count);
    if (t.empty()) t = {min_, max_};  // a narrow log range with no round value inside
    return t;
}

}  // namespace comet::ui
