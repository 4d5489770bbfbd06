#pragma once
// The charts as the rest of the app sees them. Qt Charts is deprecated after Qt 6.10, so it
// stays behind these interfaces (qt_*.cpp); another library can replace it by providing the
// factories. Every view is a ChartRenderable, so export/chart_export.hpp writes any of them to
// PNG, SVG, PDF or the clipboard.

#include <QImage>
#include <QSize>
#include <QString>
#include <memory>
#include <vector>

#include "chart_data.hpp"
#include "comet/economics.hpp"
#include "comet/fsdp.hpp"
#include "export/chart_renderable.hpp"

class QWidget;

namespace comet::ui {

// Horizontal stacked bars of iteration time, one bar per configuration.
class BreakdownChartView : public ChartRenderable {
public:
    // The widget to put in a layout. Deleting this object deletes it; once its Qt parent has
    // deleted it, this returns nullptr and exports still work.
    [[nodiscard]] virtual QWidget* widget() = 0;
    // First bar = the selected cell (drawn on top), then the pinned ones. Cheap enough to call
    // several times per second; an empty list shows "No data".
    virtual void setBars(const std::vector<BreakdownBar>& bars) = 0;
    // What an empty list shows instead of "No data" (why there is nothing: "cannot run: ..."),
    // wrapped to the chart's width. Applies from the next setBars().
    virtual void setEmptyMessage(const QString& message) = 0;
    virtual void setTitle(const QString& title) = 0;
    // The chart laid out afresh at `size` (logical pixels), independent of the widget's size.
    [[nodiscard]] virtual QImage toImage(QSize size, qreal device_pixel_ratio) = 0;
    // `title` is the SVG document title; false when the file cannot be written.
    virtual bool saveSvg(const QString& path, const QString& title) = 0;
};

// Stacked bars of bytes per accelerator, one per memory tier, with each tier's capacity marked.
class MemoryChartView : public ChartRenderable {
public:
    [[nodiscard]] virtual QWidget* widget() = 0;
    virtual void setTiers(const std::vector<MemoryBar>& tiers) = 0;
    // Defaults to "Memory per accelerator"; an overflow is appended ("— HBM exceeds capacity by …").
    virtual void setTitle(const QString& title) = 0;
    [[nodiscard]] virtual QImage toImage(QSize size, qreal device_pixel_ratio) = 0;
    virtual bool saveSvg(const QString& path, const QString& title) = 0;
};

// Which resource matters most: one row per resource (comet::sensitivity), the change of the best
// iteration time with the resource at -fraction and at +fraction, diverging around 0 %.
class TornadoChartView : public ChartRenderable {
public:
    [[nodiscard]] virtual QWidget* widget() = 0;
    // Rows in the given order, the first on top. An empty list shows "No data", an infeasible
    // base "No feasible base configuration"; an infeasible side is a hatched bar.
    virtual void setBars(const std::vector<SensitivityBar>& bars, double fraction) = 0;
    // Defaults to "Sensitivity of the best iteration time (±10 %)" (from the fraction).
    virtual void setTitle(const QString& title) = 0;
};

// Time to train against cost, one labelled point per configuration (comet::pareto_front); the
// front is joined in order of time, dominated points are grey, infeasible ones are counted only.
class ParetoChartView : public ChartRenderable {
public:
    [[nodiscard]] virtual QWidget* widget() = 0;
    virtual void setPoints(const std::vector<ParetoPoint>& points) = 0;
    // Defaults to "Time to train vs cost".
    virtual void setTitle(const QString& title) = 0;
};

// FSDP balance (comet::fsdp_balance): over the cluster size, the tokens per GPU per microbatch
// needed to hide the FSDP traffic and the most that HBM allows, with the sizes where FSDP is
// hidden marked. Points that cannot run are listed under the chart, not drawn.
class FsdpChartView : public ChartRenderable {
public:
    [[nodiscard]] virtual QWidget* widget() = 0;
    virtual void setPoints(const std::vector<FsdpPoint>& points) = 0;
    // Defaults to "FSDP balance: tokens per GPU per microbatch".
    virtual void setTitle(const QString& title) = 0;
};

// Every chart widget on screen (and those created later) drawn `zoom` times larger: presentation
// mode uses 2.1 on a 1080-pixel-high screen, in proportion on others. Exports keep their own size.
void set_chart_zoom(double zoom);
[[nodiscard]] double chart_zoom() noexcept;
// The least height of a chart widget from make_*_chart, in the chart's own pixels: presentation
// mode's zoom multiplies it, as it does the chart's text.
void set_chart_height_floor(QWidget* chart, double height);
// Presentation mode's chart zoom on the reference 1920x1080 screen: the charts' 10 pt labels
// become 2.1 x 13.3 = 28 px, readable from 3 m. Other screens scale it with their height.
inline constexpr double presentation_chart_zoom = 2.1;

[[nodiscard]] std::unique_ptr<BreakdownChartView> make_breakdown_chart(QWidget* parent);
[[nodiscard]] std::unique_ptr<MemoryChartView> make_memory_chart(QWidget* parent);
[[nodiscard]] std::unique_ptr<TornadoChartView> make_tornado_chart(QWidget* parent);
[[nodiscard]] std::unique_ptr<ParetoChartView> make_pareto_chart(QWidget* parent);
[[nodiscard]] std::unique_ptr<FsdpChartView> make_fsdp_chart(QWidget* parent);

}  // namespace comet::ui
