#pragma once
// Private to the Qt Charts implementation: a QChart of horizontal stacked bars drawn from a
// StackedBarsModel. Value labels and totals are overlay items because Qt Charts cannot hide
// labels per segment.

#include <QSizeF>
#include <QString>
#include <span>
#include <vector>

#include "chart_model.hpp"
#include "qt_overlay_chart.hpp"

class QBarCategoryAxis;
class QBarSet;
class QGraphicsSimpleTextItem;
class QHorizontalStackedBarSeries;
class QValueAxis;

namespace comet::ui {

class StackedBarsChart : public OverlayChart {
public:
    explicit StackedBarsChart(std::span<const StackCategory> categories);
    ~StackedBarsChart() override;
    StackedBarsChart(const StackedBarsChart&) = delete;
    StackedBarsChart& operator=(const StackedBarsChart&) = delete;

    [[nodiscard]] QString tooltipAt(QPointF pos) override;

protected:
    // Copies the model into the series; the subclass keeps `m` alive.
    void showModel(const StackedBarsModel& m);
    // Bars run top to bottom in model order, while Qt Charts counts categories from the bottom.
    [[nodiscard]] std::size_t rowOf(std::size_t bar) const;
    [[nodiscard]] qreal barWidth() const;  // share of a category band, fitted to the plot height
    [[nodiscard]] QValueAxis* valueAxis() const { return value_axis_; }

    // A value drawn across bar `bar` (a capacity mark) that segment labels keep clear of; < 0 for none.
    [[nodiscard]] virtual double markValue(std::size_t) const { return -1; }
    [[nodiscard]] virtual QString segmentTip(std::size_t category, std::size_t bar) const = 0;
    [[nodiscard]] virtual QColor totalLabelColor(std::size_t bar) const;
    [[nodiscard]] virtual std::vector<LegendEntry> extraLegendEntries() const { return {}; }
    // Called whenever overlays move (plot area, data), for marks the subclass draws.
    virtual void placeExtras() {}

private:
    std::vector<LegendEntry> legendEntries() const override;
    void placeContent() override;
    void resized() override { updateCategories(); }

    void setValues(QBarSet* set, const std::vector<double>& values);
    void updateAxes(const StackedBarsModel& m);
    void updateCategories();
    void fitBarWidth();
    void placeSegmentLabels();
    bool placeInSpan(QGraphicsSimpleTextItem* item, QPointF left, QPointF right, qreal mark_x);
    void placeTotals();

    const StackedBarsModel* model_ = nullptr;
    QHorizontalStackedBarSeries* series_ = nullptr;
    std::vector<QBarSet*> sets_;
    QBarCategoryAxis* category_axis_ = nullptr;
    QValueAxis* value_axis_ = nullptr;
    std::vector<QGraphicsSimpleTextItem*> segment_items_;
    std::vector<QGraphicsSimpleTextItem*> total_items_;
    qreal categories_width_ = -1;  // chart width the category labels were wrapped for
    QSizeF categories_room_;       // and the room a label had
};

}  // namespace comet::ui
