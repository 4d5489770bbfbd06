#pragma once
// The heatmap of a sweep: a thin painter over HeatmapGeometry and ColorScale. Hover shows a
// cell's breakdown, a click selects it, a right click or Ctrl+click pins it; arrow keys move the
// selection and Return pins it.

#include <QImage>
#include <QWidget>
#include <functional>
#include <map>
#include <optional>

#include "export/chart_renderable.hpp"
#include "heatmap/color_scale.hpp"
#include "heatmap/heatmap_data.hpp"
#include "heatmap/heatmap_geometry.hpp"

namespace comet::ui {

class HeatmapWidget : public QWidget, public ChartRenderable {
    Q_OBJECT
public:
    explicit HeatmapWidget(QWidget* parent = nullptr);

    void setData(HeatmapData data);
    [[nodiscard]] const HeatmapData& data() const { return data_; }
    [[nodiscard]] const ColorScale& colorScale() const { return scale_; }
    [[nodiscard]] bool isBusy() const { return busy_; }
    [[nodiscard]] std::optional<CellIndex> selectedCell() const { return selected_; }
    [[nodiscard]] const std::vector<CellIndex>& pinnedCells() const { return pinned_; }
    // The layout at a size (the widget's own: layoutFor(size())).
    [[nodiscard]] HeatmapGeometry layoutFor(QSizeF size) const;

    // The heatmap without hover or selection marks, for export (export/chart_export.hpp).
    void render(QPainter& p, QSizeF size) const override;
    [[nodiscard]] QString exportTitle() const override { return titleText(); }
    // The widget's size when it is shown at a readable size, else sizeHint().
    [[nodiscard]] QSize preferredExportSize() const override;
    [[nodiscard]] QImage render_image(QSize size, qreal dpr = 1.0) const;
    // SVG at preferredExportSize(), titled with the accessible name, described by the summary.
    bool render_svg(const QString& path) const;

    // Explains an infeasible cell for its tooltip: the binding limit with its numbers ("needs 93
    // GiB per GPU, has 78 usable"). Asked when the cell's tooltip is first shown (it may evaluate
    // neighbouring strategies), kept until new data; an empty answer keeps the cell's own reason.
    void setExplainer(std::function<QString(CellIndex)> explain);
    // What hovering the cell shows: its tooltip, with the explainer's "Infeasible: ..." line.
    [[nodiscard]] QString tooltipText(CellIndex cell) const;

    // The texts as painted at the widget's size (titles elided only when even wrapping cannot
    // fit them, tick labels), for tests and screen readers.
    [[nodiscard]] QStringList shownTexts() const;

    [[nodiscard]] QSize sizeHint() const override;
    [[nodiscard]] QSize minimumSizeHint() const override;

public Q_SLOTS:
    // Dims the map and says "updating…" while newer results are being computed.
    void setBusy(bool busy);
    void setSelectedCell(std::optional<comet::ui::CellIndex> cell);
    // Cells pinned to the breakdown chart: each gets a numbered marker (1 = first pinned).
    void setPinnedCells(const std::vector<comet::ui::CellIndex>& cells);

Q_SIGNALS:
    void cellClicked(comet::ui::CellIndex cell);
    void cellPinned(comet::ui::CellIndex cell);
    void cellHovered(comet::ui::CellIndex cell);

protected:
    bool event(QEvent* e) override;
    void paintEvent(QPaintEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    void changeEvent(QEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void leaveEvent(QEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;

private:
    void relayout();
    void updateAccessibleText();
    [[nodiscard]] QString explanation(CellIndex cell) const;
    void setHovered(std::optional<CellIndex> cell);
    void moveSelection(int dx, int dy);
    [[nodiscard]] QString titleText() const;
    [[nodiscard]] QString shownTitle(const HeatmapGeometry& g) const;
    [[nodiscard]] QString shownHint(const HeatmapGeometry& g) const;
    [[nodiscard]] QString shownXTitle(const HeatmapGeometry& g) const;
    [[nodiscard]] QStringList shownYTitle(const HeatmapGeometry& g) const;
    [[nodiscard]] double legendWidth() const;
    [[nodiscard]] std::vector<double> barTicks(const HeatmapGeometry& g) const;

    struct PaintOptions {
        bool interactive = true;  // hover and selection marks
    };
    void paint(QPainter& p, QSizeF size, PaintOptions opt) const;
    void paintTitle(QPainter& p, const HeatmapGeometry& g) const;
    void paintLegend(QPainter& p, const HeatmapGeometry& g) const;
    void paintCells(QPainter& p, const HeatmapGeometry& g) const;
    void paintAxes(QPainter& p, const HeatmapGeometry& g) const;
    void paintColorBar(QPainter& p, const HeatmapGeometry& g) const;
    void paintMarkers(QPainter& p, const HeatmapGeometry& g) const;
    void paintInteraction(QPainter& p, const HeatmapGeometry& g) const;
    void paintBusy(QPainter& p, const HeatmapGeometry& g) const;
    void paintNote(QPainter& p, const HeatmapGeometry& g) const;

    HeatmapData data_;
    ColorScale scale_;
    std::vector<QString> x_labels_;
    std::vector<QString> y_labels_;
    HeatmapGeometry geometry_;
    std::optional<CellIndex> hovered_;
    std::optional<CellIndex> selected_;
    std::vector<CellIndex> pinned_;
    bool busy_ = false;
    std::function<QString(CellIndex)> explainer_;
    mutable std::map<std::pair<int, int>, QString> explained_;  // the explainer's answers for this data
};

// "63.00 s", "64.50 s" -> "63.0 s", "64.5 s": drops the trailing zeros all labels share.
void trim_common_zeros(std::vector<QString>& labels);

}  // namespace comet::ui
