#include "heatmap_geometry.hpp"

#include <algorithm>
#include <cmath>

#include "heatmap/nice_ticks.hpp"

namespace comet::ui {
namespace {

// Label gaps and margins scale with the text so that a larger (projector) font keeps proportions.
struct Spacing {
    double margin, title_gap, label_gap, title_pad, bar_width;
    explicit Spacing(double th)
        : margin(std::round(0.75 * th)),
          title_gap(std::round(0.75 * th)),
          label_gap(std::max(4.0, 0.4 * th)),
          title_pad(std::round(0.35 * th)),
          bar_width(std::max(12.0, std::round(0.9 * th))) {}
};

// A 2-D sweep labels its rows even when it has one; a 1-D sweep has no y axis.
bool has_y_ticks(const HeatmapLayoutInput& in) { return in.ny > 1 || (in.ny == 1 && in.y_title); }

double max_of(const std::vector<double>& v) { return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end()); }

double width_at(const std::vector<double>& widths, int i) {
    return i < static_cast<int>(widths.size()) ? widths[static_cast<std::size_t>(i)] : 0.0;
}

std::vector<double> edges(double from, double to, int n) {
    std::vector<double> e(static_cast<std::size_t>(n) + 1);
    for (int i = 0; i <= n; ++i) e[static_cast<std::size_t>(i)] = std::round(from + (to - from) * i / n);
    return e;
}

// Every stride-th index from 0, and the last one too: it replaces the one before it (never the
// first) when the two labels would clash.
template <class Clear>
std::vector<int> labelled(int n, int stride, Clear clear) {
    std::vector<int> out;
    for (int i = 0; i < n; i += stride) out.push_back(i);
    if (out.back() == n - 1) return out;
    if (!clear(out.back(), n - 1) && out.size() > 1) out.pop_back();
    if (clear(out.back(), n - 1)) out.push_back(n - 1);
    return out;
}

constexpr int most_value_ticks = 15;

bool uses_values(const AxisScale& scale, int n, const HeatmapLayoutInput& in) {
    return n > 1 && static_cast<int>(scale.values.size()) == n && static_cast<bool>(in.value_label_width);
}

}  // namespace

std::vector<ValueTick> value_ticks(const AxisScale& scale, int max_count) {
    if (scale.values.size() < 2) return {};
    const auto [lo, hi] = std::minmax_element(scale.values.begin(), scale.values.end());
    std::vector<ValueTick> out;
    for (double v : nice_ticks(*lo, *hi, max_count, scale.log))
        if (const auto f = fractional_index(scale.values, v, scale.log)) out.push_back({v, *f});
    return out;
}

double widest_value_label(const AxisScale& scale, const std::function<double(double)>& width) {
    double w = 0;
    if (!width) return w;
    for (int n = 2; n <= most_value_ticks; ++n)
        for (const ValueTick& t : value_ticks(scale, n)) w = std::max(w, width(t.value));
    return w;
}

HeatmapGeometry::HeatmapGeometry(const HeatmapLayoutInput& in)
    : nx_(std::max(0, in.nx)), ny_(std::max(0, in.ny)), text_h_(in.text_height), tick_(std::max(4.0, std::round(0.3 * in.text_height))) {
    const Spacing s(in.text_height);
    const double W = in.size.width();
    if (uses_values(in.x_scale, nx_, in)) x_value_w_ = widest_value_label(in.x_scale, in.value_label_width);
    if (uses_values(in.y_scale, ny_, in)) y_value_w_ = widest_value_label(in.y_scale, in.value_label_width);
    title_ = QRectF(s.margin, s.margin, std::max(0.0, W - 2 * s.margin - in.legend_width), in.title_height);
    legend_ = QRectF(W - s.margin - in.legend_width, s.margin, in.legend_width, in.title_height);
    const QRectF avail = available(in);
    place_plot(in, avail);
    place_x_ticks(in);
    place_y_ticks(in);
    if (in.colorbar) place_colorbar(in, avail);
    place_axis_titles(in, avail);
}

// Tick marks and the x tick labels below the plot.
double HeatmapGeometry::x_band() const { return std::max(tick_ + 2, text_h_ / 2 + 1) + text_h_; }

// What is left for the plot once the title, tick labels, axis titles and colour bar have room.
QRectF HeatmapGeometry::available(const HeatmapLayoutInput& in) const {
    const Spacing s(in.text_height);
    const double max_xw = widest_x(in);
    const double top = s.margin + in.title_height + s.title_gap + (in.y_title && in.y_title_above ? in.text_height + s.title_pad : 0);
    const double bottom = in.size.height() - s.margin - (in.x_title ? in.text_height + s.title_pad : 0) - x_band();
    double left = s.margin + (in.y_title && !in.y_title_above ? std::max(1, in.y_title_lines) * in.text_height + s.title_pad : 0);
    if (has_y_ticks(in)) left += y_label_w(in) + tick_ + s.label_gap;
    left = std::max(left, s.margin + max_xw / 2);  // the first column's label is centred on it
    double right = in.size.width() - s.margin;
    if (in.colorbar)
        right -= in.bar_label_width + tick_ + s.label_gap + s.bar_width + colorbar_gap(in);
    else
        right -= max_xw / 2;
    return QRectF(QPointF(left, top), QPointF(std::max(left, right), std::max(top, bottom)));
}

// Wide enough that the last column's label never reaches the bar.
double HeatmapGeometry::colorbar_gap(const HeatmapLayoutInput& in) const {
    return std::max(1.2 * in.text_height, widest_x(in) / 2 + Spacing(in.text_height).label_gap);
}

double HeatmapGeometry::widest_x(const HeatmapLayoutInput& in) const { return std::max(max_of(in.x_label_widths), x_value_w_); }
double HeatmapGeometry::y_label_w(const HeatmapLayoutInput& in) const { return std::max(in.y_label_width, y_value_w_); }

double HeatmapGeometry::x_at(double f) const {
    const int i = std::clamp(static_cast<int>(std::floor(f)), 0, nx_ - 1);
    if (i + 1 >= nx_) return column_centre(i);
    return column_centre(i) + (f - i) * (column_centre(i + 1) - column_centre(i));
}

double HeatmapGeometry::y_at(double f) const {
    const int i = std::clamp(static_cast<int>(std::floor(f)), 0, ny_ - 1);
    if (i + 1 >= ny_) return row_centre(i);
    return row_centre(i) + (f - i) * (row_centre(i + 1) - row_centre(i));
}

// Round values between the cells, as many as fit without their labels touching; false (and
// nothing placed) when fewer than two fit.
bool HeatmapGeometry::place_x_value_ticks(const HeatmapLayoutInput& in) {
    const double gap = std::max(8.0, 1.2 * in.text_height);
    const double label_top = plot_.bottom() + std::max(tick_ + 2, in.text_height / 2 + 1);
    for (int count = most_value_ticks; count >= 2; --count) {
        const std::vector<ValueTick> ticks = value_ticks(in.x_scale, count);
        if (ticks.size() < 2) continue;
        std::vector<AxisTick> placed;
        bool fits = true;
        for (const ValueTick& t : ticks) {
            const double x = x_at(t.index);
            const double w = in.value_label_width(t.value);
            if (!placed.empty()) {
                const AxisTick& prev = placed.back();
                if (std::abs(x - prev.pos) < (w + prev.label.width()) / 2 + gap) {
                    fits = false;
                    break;
                }
            }
            placed.push_back({static_cast<int>(std::lround(t.index)), x, QRectF(x - w / 2, label_top, w, in.text_height), t.value});
        }
        if (!fits) continue;
        x_ticks_ = std::move(placed);
        return true;
    }
    return false;
}

bool HeatmapGeometry::place_y_value_ticks(const HeatmapLayoutInput& in) {
    const double need = 2 * in.text_height;
    const double width = y_label_w(in);
    const double right = plot_.left() - tick_ - 3;
    // Every tick of a nice set, else every other one of it (a short axis: 50, 100, 200 is too
    // dense, 50 and 200 fit), from the densest set down.
    auto place = [&](const std::vector<ValueTick>& ticks, std::size_t step) {
        std::vector<AxisTick> placed;
        for (std::size_t i = 0; i < ticks.size(); i += step) {
            const ValueTick& t = ticks[i];
            const double y = y_at(t.index);
            if (!placed.empty() && std::abs(y - placed.back().pos) < need) return false;
            placed.push_back(
                {static_cast<int>(std::lround(t.index)), y, QRectF(right - width, y - in.text_height / 2, width, in.text_height), t.value});
        }
        if (placed.size() < 2) return false;
        y_ticks_ = std::move(placed);
        return true;
    };
    for (int count = most_value_ticks; count >= 2; --count) {
        const std::vector<ValueTick> ticks = value_ticks(in.y_scale, count);
        if (ticks.size() >= 2 && place(ticks, 1)) return true;
    }
    for (int count = most_value_ticks; count >= 3; --count) {
        const std::vector<ValueTick> ticks = value_ticks(in.y_scale, count);
        if (ticks.size() >= 3 && place(ticks, 2)) return true;
    }
    return false;
}

// Centred on the plot, but as long as the widget allows: a small or 1-D plot is short.
void HeatmapGeometry::place_axis_titles(const HeatmapLayoutInput& in, QRectF avail) {
    const Spacing s(in.text_height);
    const double cx = plot_.center().x();
    const double half = std::max(0.0, std::min(cx - s.margin, in.size.width() - s.margin - cx));
    const double x_top = plot_.bottom() + x_band() + s.title_pad;
    if (in.x_title) x_title_ = QRectF(cx - half, x_top, 2 * half, in.text_height);
    if (in.y_title && in.y_title_above) {
        y_above_ = true;
        y_title_ = QRectF(s.margin, plot_.top() - s.title_pad - in.text_height,
                          std::max(0.0, in.size.width() - 2 * s.margin - bar_.width()), in.text_height);
        return;
    }
    const double lines_h = std::max(1, in.y_title_lines) * in.text_height;
    const QPointF y_centre(s.margin + lines_h / 2, plot_.center().y());
    if (in.y_title) y_title_ = QRectF(y_centre - QPointF(avail.height() / 2, lines_h / 2), QSizeF(avail.height(), lines_h));
}

void HeatmapGeometry::place_plot(const HeatmapLayoutInput& in, QRectF avail) {
    if (nx_ == 0 || ny_ == 0 || avail.isEmpty()) {
        plot_ = QRectF(avail.topLeft(), QSizeF(0, 0));
        xs_.assign(static_cast<std::size_t>(nx_) + 1, avail.left());
        ys_.assign(static_cast<std::size_t>(ny_) + 1, avail.top());
        return;
    }
    // Long thin cells read badly: a single row (a 1-D sweep) becomes a strip of square-ish cells.
    const double cw = avail.width() / nx_;
    const double ch = avail.height() / ny_;
    const double limit = 4 * in.text_height;
    const double ratio = (nx_ == 1 || ny_ == 1) ? 1.0 : 3.0;
    const double w = nx_ * std::min(cw, std::max(ratio * ch, limit));
    const double h = ny_ * std::min(ch, std::max(ratio * cw, limit));
    const double l = std::round(avail.left() + (avail.width() - w) / 2);
    const double t = std::round(avail.top() + (avail.height() - h) / 2);
    plot_ = QRectF(QPointF(l, t), QPointF(std::round(l + w), std::round(t + h)));
    xs_ = edges(plot_.left(), plot_.right(), nx_);
    ys_ = edges(plot_.bottom(), plot_.top(), ny_);
}

double HeatmapGeometry::column_centre(int ix) const {
    return (xs_[static_cast<std::size_t>(ix)] + xs_[static_cast<std::size_t>(ix) + 1]) / 2;
}

double HeatmapGeometry::row_centre(int iy) const { return (ys_[static_cast<std::size_t>(iy)] + ys_[static_cast<std::size_t>(iy) + 1]) / 2; }

void HeatmapGeometry::place_x_ticks(const HeatmapLayoutInput& in) {
    if (nx_ == 0 || plot_.isEmpty()) return;
    if (uses_values(in.x_scale, nx_, in) && place_x_value_ticks(in)) return;
    const double gap = std::max(8.0, 1.2 * in.text_height);
    auto fits = [&](int stride) {
        for (int i = 0; i + stride < nx_; i += stride) {
            const double room = column_centre(i + stride) - column_centre(i);
            if (room < (width_at(in.x_label_widths, i) + width_at(in.x_label_widths, i + stride)) / 2 + gap) return false;
        }
        return true;
    };
    int stride = 1;
    while (stride < nx_ && !fits(stride)) ++stride;
    // Prefer a slightly larger stride that also labels the last column.
    for (int s = stride; s <= stride + stride / 2 && s < nx_; ++s)
        if ((nx_ - 1) % s == 0 && fits(s)) {
            stride = s;
            break;
        }
    const double label_top = plot_.bottom() + std::max(tick_ + 2, in.text_height / 2 + 1);
    auto clear = [&](int a, int b) {
        return column_centre(b) - column_centre(a) >= (width_at(in.x_label_widths, a) + width_at(in.x_label_widths, b)) / 2 + gap;
    };
    for (int i : labelled(nx_, stride, clear)) {
        const double w = width_at(in.x_label_widths, i);
        x_ticks_.push_back({i, column_centre(i), QRectF(column_centre(i) - w / 2, label_top, w, in.text_height)});
    }
}

void HeatmapGeometry::place_y_ticks(const HeatmapLayoutInput& in) {
    if (!has_y_ticks(in) || plot_.isEmpty()) return;
    if (uses_values(in.y_scale, ny_, in) && place_y_value_ticks(in)) return;
    const double need = 2 * in.text_height;  // every other text line: readable from the back of a room
    // Rounded edges make rows differ by a pixel: check every pair, not just the first.
    auto fits = [&](int s) {
        for (int i = 0; i + s < ny_; i += s)
            if (row_centre(i) - row_centre(i + s) < need) return false;
        return true;
    };
    int stride = 1;
    while (stride < ny_ && !fits(stride)) ++stride;
    const double right = plot_.left() - tick_ - 3;
    auto clear = [&](int a, int b) { return row_centre(a) - row_centre(b) >= need; };
    for (int i : labelled(ny_, stride, clear)) {
        const double c = row_centre(i);
        y_ticks_.push_back({i, c, QRectF(right - y_label_w(in), c - in.text_height / 2, y_label_w(in), in.text_height)});
    }
}

void HeatmapGeometry::place_colorbar(const HeatmapLayoutInput& in, QRectF avail) {
    const Spacing s(in.text_height);
    const double gap = colorbar_gap(in);
    const double h = std::min(avail.height(), std::max(plot_.height(), 8 * in.text_height));
    const double top = std::clamp(plot_.center().y() - h / 2, avail.top(), std::max(avail.top(), avail.bottom() - h));
    bar_ = QRectF(std::round(plot_.right() + gap), std::round(top), s.bar_width, std::round(h));
}

double HeatmapGeometry::colorbar_y(double t) const { return bar_.bottom() - std::clamp(t, 0.0, 1.0) * bar_.height(); }

int HeatmapGeometry::colorbar_max_ticks() const { return std::max(2, static_cast<int>(bar_.height() / (3 * text_h_)) + 1); }

QRectF HeatmapGeometry::colorbar_label_rect(double t, double width) const {
    return QRectF(bar_.right() + tick_ + 3, colorbar_y(t) - text_h_ / 2, width, text_h_);
}

QRectF HeatmapGeometry::cell_rect(CellIndex c) const {
    if (c.ix < 0 || c.ix >= nx_ || c.iy < 0 || c.iy >= ny_) return {};
    const auto ix = static_cast<std::size_t>(c.ix);
    const auto iy = static_cast<std::size_t>(c.iy);
    return QRectF(QPointF(xs_[ix], ys_[iy + 1]), QPointF(xs_[ix + 1], ys_[iy]));
}

std::optional<CellIndex> HeatmapGeometry::cell_at(QPointF p) const {
    if (nx_ == 0 || ny_ == 0 || plot_.isEmpty()) return std::nullopt;
    if (p.x() < xs_.front() || p.x() >= xs_.back() || p.y() < ys_.back() || p.y() >= ys_.front()) return std::nullopt;
    // upper_bound picks the last of equal edges, so zero-width cells are never hit.
    const auto ix = std::upper_bound(xs_.begin(), xs_.end(), p.x()) - xs_.begin() - 1;
    const auto j = std::upper_bound(ys_.rbegin(), ys_.rend(), p.y()) - ys_.rbegin() - 1;
    return CellIndex{static_cast<int>(ix), ny_ - 1 - static_cast<int>(j)};
}

std::vector<std::size_t> non_overlapping(std::span<const QRectF> rects) {
    std::vector<std::size_t> kept;
    for (std::size_t i = 0; i < rects.size(); ++i) {
        const bool clash = std::any_of(kept.begin(), kept.end(), [&](std::size_t k) { return rects[k].intersects(rects[i]); });
        if (!clash) kept.push_back(i);
    }
    return kept;
}

}  // namespace comet::ui
