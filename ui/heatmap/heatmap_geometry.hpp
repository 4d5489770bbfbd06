#pragma once
// Where everything of the heatmap goes, as pure numbers: the plot rectangle, cell <-> pixel
// mapping, thinned axis ticks, the colour bar. No painting and no fonts (text sizes come in as
// numbers), so it is unit-testable without pixels. Row 0 is at the bottom (values grow upwards).

#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "heatmap/heatmap_data.hpp"

namespace comet::ui {

// The values of an axis' cells, when the axis is continuous: it is labelled at round values
// between the cells (500, 600, 700) rather than at the cells (510, 606, 721).
struct AxisScale {
    std::vector<double> values;  // one per cell; empty: label the cells
    bool log = false;            // geometric values, interpolated in log space
};

struct HeatmapLayoutInput {
    QSizeF size;
    int nx = 0;
    int ny = 0;
    double text_height = 14;             // line height of tick labels and axis titles
    double title_height = 18;            // line height of the title
    std::vector<double> x_label_widths;  // one per column
    double y_label_width = 0;            // widest row label (unused when ny == 1)
    double bar_label_width = 0;          // widest colour-bar label
    double legend_width = 0;             // legend at the right end of the title line
    bool x_title = true;
    bool y_title = true;
    int y_title_lines = 1;       // a long y title wraps onto a second line beside the first
    bool y_title_above = false;  // a y title too long for the plot's height: one line above it
    bool colorbar = true;
    AxisScale x_scale;  // round-value ticks when set (and value_label_width is)
    AxisScale y_scale;
    std::function<double(double)> value_label_width;  // width of the label of a round value
};

struct AxisTick {
    int index = 0;   // column or row (for a round-value tick: the nearest one)
    double pos = 0;  // along the axis (x for columns, y for rows): the cell's centre, or the value's place
    QRectF label;    // where its label goes
    double value = std::numeric_limits<double>::quiet_NaN();  // a round-value tick's value, else NaN
};

class HeatmapGeometry {
public:
    HeatmapGeometry() = default;
    explicit HeatmapGeometry(const HeatmapLayoutInput& in);

    [[nodiscard]] int nx() const { return nx_; }
    [[nodiscard]] int ny() const { return ny_; }
    [[nodiscard]] QRectF plot() const { return plot_; }
    [[nodiscard]] QRectF cell_rect(CellIndex c) const;
    [[nodiscard]] std::optional<CellIndex> cell_at(QPointF p) const;

    [[nodiscard]] const std::vector<AxisTick>& x_ticks() const { return x_ticks_; }
    [[nodiscard]] const std::vector<AxisTick>& y_ticks() const { return y_ticks_; }
    [[nodiscard]] double tick_length() const { return tick_; }

    [[nodiscard]] QRectF title_rect() const { return title_; }    // left part of the title line
    [[nodiscard]] QRectF legend_rect() const { return legend_; }  // right end of the title line
    [[nodiscard]] QRectF x_title_rect() const { return x_title_; }
    // The y title's box before rotation; paint it rotated by -90 degrees about its centre, unless
    // it is above the plot (y_title_above(): a line left-aligned over the y tick labels).
    [[nodiscard]] QRectF y_title_rect() const { return y_title_; }
    [[nodiscard]] bool y_title_above() const { return y_above_; }

    [[nodiscard]] QRectF colorbar() const { return bar_; }
    // Vertical position of a normalised value on the bar: 0 at the bottom, 1 at the top.
    [[nodiscard]] double colorbar_y(double t) const;
    [[nodiscard]] int colorbar_max_ticks() const;
    [[nodiscard]] QRectF colorbar_label_rect(double t, double width) const;

private:
    [[nodiscard]] QRectF available(const HeatmapLayoutInput& in) const;
    [[nodiscard]] double x_band() const;
    [[nodiscard]] double widest_x(const HeatmapLayoutInput& in) const;
    [[nodiscard]] double y_label_w(const HeatmapLayoutInput& in) const;
    [[nodiscard]] double colorbar_gap(const HeatmapLayoutInput& in) const;
    void place_plot(const HeatmapLayoutInput& in, QRectF avail);
    void place_axis_titles(const HeatmapLayoutInput& in, QRectF avail);
    void place_x_ticks(const HeatmapLayoutInput& in);
    void place_y_ticks(const HeatmapLayoutInput& in);
    [[nodiscard]] bool place_x_value_ticks(const HeatmapLayoutInput& in);
    [[nodiscard]] bool place_y_value_ticks(const HeatmapLayoutInput& in);
    [[nodiscard]] double x_at(double fractional_column) const;
    [[nodiscard]] double y_at(double fractional_row) const;
    void place_colorbar(const HeatmapLayoutInput& in, QRectF avail);
    [[nodiscard]] double column_centre(int ix) const;
    [[nodiscard]] double row_centre(int iy) const;

    int nx_ = 0;
    int ny_ = 0;
    double text_h_ = 14;
    double tick_ = 4;
    bool y_above_ = false;
    double x_value_w_ = 0;  // widest round-value label of each axis (0: cells labelled)
    double y_value_w_ = 0;
    QRectF plot_;
    std::vector<double> xs_;  // column edges, left to right (nx + 1)
    std::vector<double> ys_;  // row edges, bottom to top (ny + 1), decreasing pixel y
    std::vector<AxisTick> x_ticks_;
    std::vector<AxisTick> y_ticks_;
    QRectF title_, legend_, x_title_, y_title_, bar_;
};

// The round values a continuous axis is labelled with, at most max_count of them, and where they
// go: nice_ticks() over the range of the cells' values, each with its fractional cell index.
struct ValueTick {
    double value = 0;
    double index = 0;  // fractional column or row (fractional_index)
};
[[nodiscard]] std::vector<ValueTick> value_ticks(const AxisScale& scale, int max_count);
// The widest label of any value_ticks() the layout may choose (for margins).
[[nodiscard]] double widest_value_label(const AxisScale& scale, const std::function<double(double)>& width);

// Indices of the rects a greedy left-to-right pass keeps so that no two kept ones intersect.
[[nodiscard]] std::vector<std::size_t> non_overlapping(std::span<const QRectF> rects);

}  // namespace comet::ui
