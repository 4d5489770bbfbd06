// Qt Charts implementation of ParetoChartView: two scatter series (front, dominated) and the
// front's staircase, with every point's label placed as an overlay beside it.

#include <QGraphicsSimpleTextItem>
#include <QLineSeries>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <numeric>

#include "chart_model.hpp"
#include "chart_views.hpp"
#include "qt_chart_host.hpp"

namespace comet::ui {
namespace {

constexpr qreal marker_px = 11;
constexpr qreal hover_radius_px = 10;
constexpr qreal line_clearance_px = 2;
const QColor dominated_label{0x55, 0x55, 0x55};

QList<QPointF> positions(const ParetoModel& m, bool on_front) {
    QList<QPointF> out;
    for (const ParetoMarker& p : m.points)
        if (p.on_front == on_front) out << p.pos;
    return out;
}

QValueAxis* make_axis(QChart* chart, Qt::Alignment where) {
    auto* axis = new QValueAxis(chart);
    axis->setLabelsFont(chart_font(10));
    axis->setTitleFont(chart_font(10));
    axis->setGridLineColor(QColor(0xDD, 0xDD, 0xDD));
    chart->addAxis(axis, where);
    return axis;
}

void show_axis(QValueAxis* axis, const ValueAxisModel& m, bool visible) {
    axis->setVisible(visible);
    axis->setRange(m.min, m.max);
    axis->setTickCount(m.tick_count);
    axis->setLabelFormat(m.label_format);
    axis->setTitleText(m.title);
}

class ParetoQChart final : public OverlayChart {
public:
    using Model = ParetoModel;

    ParetoQChart() {
        time_axis_ = make_axis(this, Qt::AlignBottom);
        cost_axis_ = make_axis(this, Qt::AlignLeft);
        steps_ = new QLineSeries(this);
        dominated_ = new QScatterSeries(this);
        front_ = new QScatterSeries(this);
        for (QXYSeries* s : {static_cast<QXYSeries*>(steps_), static_cast<QXYSeries*>(dominated_), static_cast<QXYSeries*>(front_)}) {
            addSeries(s);  // later series are drawn on top: the front over the grey points
            s->attachAxis(time_axis_);
            s->attachAxis(cost_axis_);
        }
        for (QScatterSeries* s : {dominated_, front_}) {
            s->setMarkerShape(QScatterSeries::MarkerShapeCircle);
            s->setMarkerSize(marker_px);
            s->setBorderColor(Qt::white);
        }
        setModel(build_pareto_model({}));
    }

    static QString defaultTitle(const Model&) { return QStringLiteral("Time to train vs cost"); }

    void setModel(Model m) {
        model_ = std::move(m);
        front_->setColor(model_.front_color);
        dominated_->setColor(model_.dominated_color);
        steps_->setPen(QPen(model_.front_color, 2));
        front_->replace(positions(model_, true));
        dominated_->replace(positions(model_, false));
        steps_->replace(QList<QPointF>(model_.front_steps.begin(), model_.front_steps.end()));
        show_axis(time_axis_, model_.time_axis, !model_.empty());
        show_axis(cost_axis_, model_.cost_axis, !model_.empty());
        setMessage(model_.message);
        setDefaultTitle(defaultTitle(model_));
        placeOverlays();
    }

    QString tooltipAt(QPointF pos) override {
        const ParetoMarker* nearest = nullptr;
        qreal best = hover_radius_px;
        for (const ParetoMarker& p : model_.points) {
            const qreal d = QLineF(pos, mapToPosition(p.pos, front_)).length();
            if (d <= best) {
                best = d;
                nearest = &p;
            }
        }
        return nearest ? nearest->tooltip : QString();
    }

private:
    std::vector<LegendEntry> legendEntries() const override {
        std::vector<LegendEntry> entries;
        const auto front = std::count_if(model_.points.begin(), model_.points.end(), [](const ParetoMarker& p) { return p.on_front; });
        if (front > 0) entries.push_back({QStringLiteral("Pareto front"), model_.front_color, Swatch::dot});
        if (static_cast<std::size_t>(front) < model_.points.size())
            entries.push_back({QStringLiteral("Dominated"), model_.dominated_color, Swatch::dot});
        if (!model_.infeasible_note.isEmpty()) entries.push_back({model_.infeasible_note, QColor(), Swatch::none});
        return entries;
    }

    // Front points choose their label spots first: they are the ones people read.
    void placeContent() override {
        for (auto* item : label_items_) item->hide();
        if (model_.empty()) return;
        // Qt Charts truncates the cost axis' title to the plot's height: ask for that much.
        const QFontMetricsF title(cost_axis_->titleFont());
        needPlotHeight(title.horizontalAdvance(cost_axis_->titleText()) + 2 * title.lineSpacing());
        std::vector<std::size_t> order(model_.points.size());
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::stable_partition(order.begin(), order.end(), [&](std::size_t i) { return model_.points[i].on_front; });
        std::vector<QPointF> anchors;
        std::vector<QSizeF> sizes;
        for (std::size_t k = 0; k < order.size(); ++k) {
            const ParetoMarker& p = model_.points[order[k]];
            auto* item = overlayText(label_items_, k);
            item->setText(p.label);
            item->setBrush(p.on_front ? chart_text_color : dominated_label);
            anchors.push_back(mapToPosition(p.pos, front_));
            sizes.push_back(item->boundingRect().size());
        }
        const std::vector<QRectF> spots = place_point_labels(anchors, sizes, plotArea(), marker_px / 2, stepRects());
        for (std::size_t k = 0; k < spots.size(); ++k) {
            label_items_[k]->setPos(spots[k].topLeft());
            label_items_[k]->show();
        }
    }

    // The staircase's segments (horizontal or vertical) as thin rectangles that labels keep off.
    std::vector<QRectF> stepRects() {
        std::vector<QRectF> out;
        for (std::size_t i = 1; i < model_.front_steps.size(); ++i) {
            const QPointF a = mapToPosition(model_.front_steps[i - 1], steps_);
            const QPointF b = mapToPosition(model_.front_steps[i], steps_);
            out.push_back(QRectF(a, b).normalized().adjusted(-line_clearance_px, -line_clearance_px, line_clearance_px, line_clearance_px));
        }
        return out;
    }

    Model model_;
    QValueAxis* time_axis_ = nullptr;
    QValueAxis* cost_axis_ = nullptr;
    QLineSeries* steps_ = nullptr;
    QScatterSeries* dominated_ = nullptr;
    QScatterSeries* front_ = nullptr;
    std::vector<QGraphicsSimpleTextItem*> label_items_;
};

class QtParetoChartView final : public HostedView<ParetoChartView, ParetoQChart> {
public:
    explicit QtParetoChartView(QWidget* parent) : HostedView(parent, QStringLiteral("Time to train vs cost chart")) {
        host_.setModel(build_pareto_model({}));
    }
    void setPoints(const std::vector<ParetoPoint>& points) override { host_.setModel(build_pareto_model(points)); }
};

}  // namespace

std::unique_ptr<ParetoChartView> make_pareto_chart(QWidget* parent) { return std::make_unique<QtParetoChartView>(parent); }

}  // namespace comet::ui
