#pragma once
// Private to the Qt Charts implementation: a QChart of horizontal stacked bars drawn from a
// StackedBarsModel. Value labels, totals, the legend and the "No data" state are overlay items
// because Qt Charts can neither hide labels per segment nor wrap its legend in narrow panes.

#include <QChart>
#include <QChartView>
#include <QString>
#include <functional>
#include <span>
#include <vector>

#include "chart_model.hpp"

class QBarCategoryAxis;
class QBarSet;
class QGraphicsRectItem;
class QGraphicsSimpleTextItem;
class QHorizontalStackedBarSeries;
class QValueAxis;

namespace comet::ui {

// Overlay items carry this key, so tests can find the legend among the chart's child items.
inline constexpr int overlay_role_key = 0;
inline const QString legend_role = QStringLiteral("legend");
inline const QColor chart_text_color{0x20, 0x20, 0x20};

class StackedBarsChart : public QChart {
public:
    explicit StackedBarsChart(std::span<const StackCategory> categories);
    ~StackedBarsChart() override;
    StackedBarsChart(const StackedBarsChart&) = delete;
    StackedBarsChart& operator=(const StackedBarsChart&) = delete;

    void setBaseTitle(const QString& title);
    // Hover text at a point in chart coordinates; empty when nothing is under it.
    [[nodiscard]] QString tooltipAt(QPointF pos);

protected:
    struct LegendEntry {
        QString name;
        QColor color;
        bool line = false;  // a thin vertical swatch, as for a capacity mark
    };

    // Copies the model into the series; the subclass keeps `m` alive.
    void showModel(const StackedBarsModel& m);
    void refreshTitle();
    // Bars run top to bottom in model order, while Qt Charts counts categories from the bottom.
    [[nodiscard]] std::size_t rowOf(std::size_t bar) const;
    [[nodiscard]] qreal barWidth() const;  // share of a category band, fitted to the plot height
    [[nodiscard]] QValueAxis* valueAxis() const { return value_axis_; }

    // Appended to the title ("HBM exceeds capacity by 12 GiB"); empty for none.
    [[nodiscard]] virtual QString titleSuffix() const { return {}; }
    // A value drawn across bar `bar` (a capacity mark) that segment labels keep clear of; < 0 for none.
    [[nodiscard]] virtual double markValue(std::size_t) const { return -1; }
    [[nodiscard]] virtual QString segmentTip(std::size_t category, std::size_t bar) const = 0;
    [[nodiscard]] virtual QColor totalLabelColor(std::size_t bar) const;
    [[nodiscard]] virtual std::vector<LegendEntry> extraLegendEntries() const { return {}; }
    // Called whenever overlays move (plot area, data), for marks the subclass draws.
    virtual void placeExtras() {}

private:
    struct LegendItem {
        QGraphicsRectItem* swatch;
        QGraphicsSimpleTextItem* text;
    };

    void setValues(QBarSet* set, const std::vector<double>& values);
    void updateAxes(const StackedBarsModel& m);
    void updateCategories();
    void placeOverlays();
    void fitBarWidth();
    void placeSegmentLabels();
    bool placeInSpan(QGraphicsSimpleTextItem* item, QPointF left, QPointF right, qreal mark_x);
    void placeTotals();
    void placeLegend();
    QGraphicsSimpleTextItem* overlayText(std::vector<QGraphicsSimpleTextItem*>& pool, std::size_t i);
    LegendItem& legendItem(std::size_t i);

    const StackedBarsModel* model_ = nullptr;
    QString base_title_;
    QHorizontalStackedBarSeries* series_ = nullptr;
    std::vector<QBarSet*> sets_;
    QBarCategoryAxis* category_axis_ = nullptr;
    QValueAxis* value_axis_ = nullptr;
    std::vector<QGraphicsSimpleTextItem*> segment_items_;
    std::vector<QGraphicsSimpleTextItem*> total_items_;
    std::vector<LegendItem> legend_items_;
    QGraphicsSimpleTextItem* no_data_ = nullptr;
    qreal categories_width_ = -1;  // chart width the category labels were elided for
};

// A QChartView whose tooltips come from a callback (Qt Charts has none per segment).
class TipChartView : public QChartView {
public:
    TipChartView(QChart* chart, QWidget* parent);
    std::function<QString(QPointF chart_pos)> tip;

protected:
    bool viewportEvent(QEvent* event) override;
};

// At least 10 pt everywhere so that projected charts stay legible.
[[nodiscard]] QFont chart_font(qreal point_size, bool bold = false);

}  // namespace comet::ui
