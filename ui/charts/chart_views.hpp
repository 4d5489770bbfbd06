#pragma once
// The charts as the rest of the app sees them. Qt Charts is deprecated after Qt 6.10, so it
// stays behind these interfaces (qt_charts_views.cpp); another library can replace it by
// providing the two factories.

#include <QImage>
#include <QSize>
#include <QString>
#include <memory>
#include <vector>

#include "chart_data.hpp"

class QWidget;

namespace comet::ui {

// Horizontal stacked bars of iteration time, one bar per configuration.
class BreakdownChartView {
public:
    virtual ~BreakdownChartView() = default;
    // The widget to put in a layout. Deleting this object deletes it; once its Qt parent has
    // deleted it, this returns nullptr and exports still work.
    [[nodiscard]] virtual QWidget* widget() = 0;
    // First bar = the selected cell (drawn on top), then the pinned ones. Cheap enough to call
    // several times per second; an empty list shows "No data".
    virtual void setBars(const std::vector<BreakdownBar>& bars) = 0;
    virtual void setTitle(const QString& title) = 0;
    // The chart laid out afresh at `size` (logical pixels), independent of the widget's size.
    [[nodiscard]] virtual QImage toImage(QSize size, qreal device_pixel_ratio) = 0;
    // `title` is the SVG document title; false when the file cannot be written.
    virtual bool saveSvg(const QString& path, const QString& title) = 0;
};

// Stacked bars of bytes per accelerator, one per memory tier, with each tier's capacity marked.
class MemoryChartView {
public:
    virtual ~MemoryChartView() = default;
    [[nodiscard]] virtual QWidget* widget() = 0;
    virtual void setTiers(const std::vector<MemoryBar>& tiers) = 0;
    // Defaults to "Memory per accelerator"; an overflow is appended ("— HBM exceeds capacity by …").
    virtual void setTitle(const QString& title) = 0;
    [[nodiscard]] virtual QImage toImage(QSize size, qreal device_pixel_ratio) = 0;
    virtual bool saveSvg(const QString& path, const QString& title) = 0;
};

[[nodiscard]] std::unique_ptr<BreakdownChartView> make_breakdown_chart(QWidget* parent);
[[nodiscard]] std::unique_ptr<MemoryChartView> make_memory_chart(QWidget* parent);

}  // namespace comet::ui
