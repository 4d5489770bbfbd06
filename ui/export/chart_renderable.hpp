#pragma once
// What the export code needs from a chart: paint yourself at a size. Charts and the heatmap
// implement it; chart_export.hpp turns it into PNG, SVG, PDF or the clipboard without knowing
// the chart library behind it.

#include <QSize>
#include <QSizeF>
#include <QString>

class QPainter;

namespace comet::ui {

class ChartRenderable {
public:
    virtual ~ChartRenderable() = default;
    // Lays the chart out afresh at `size` (logical pixels, fonts measured at the screen's logical
    // DPI) and paints it with `p`, independent of any widget's size on screen.
    virtual void render(QPainter& p, QSizeF size) const = 0;
    // The chart's title, used as the document title of SVG and PDF files.
    [[nodiscard]] virtual QString exportTitle() const = 0;
    // The size (logical pixels) an export uses when none is given.
    [[nodiscard]] virtual QSize preferredExportSize() const = 0;
};

}  // namespace comet::ui
