// Qt Charts implementation of FsdpChartView: two line series over a base-2 logarithmic GPU axis,
// a scatter series marking where FSDP is hidden, and a y axis that is linear or logarithmic as
// the model says.

#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>

#include "chart_model.hpp"
#include "chart_views.hpp"
#include "qt_chart_host.hpp"

namespace comet::ui {
namespace {

constexpr qreal line_px = 2.5;
constexpr qreal hidden_marker_px = 13;
constexpr qreal hover_radius_px = 10;
const QColor grid_color{0xDD, 0xDD, 0xDD};

template <class Axis>
Axis* make_axis(QChart* chart, Qt::Alignment where) {
    auto* axis = new Axis(chart);
    axis->setLabelsFont(chart_font(10));
    axis->setTitleFont(chart_font(10));
    axis->setGridLineColor(grid_color);
    chart->addAxis(axis, where);
    return axis;
}

QList<QPointF> positions(const std::vector<FsdpMarker>& markers) {
    QList<QPointF> out;
    for (const FsdpMarker& m : markers) out << m.pos;
    return out;
}

class FsdpQChart final : public OverlayChart {
public:
    using Model = FsdpChartModel;

    FsdpQChart() {
        gpus_axis_ = make_axis<QLogValueAxis>(this, Qt::AlignBottom);
        gpus_axis_->setBase(2);
        gpus_axis_->setLabelFormat(QStringLiteral("%.0f"));
        gpus_axis_->setMinorTickCount(0);
        linear_axis_ = make_axis<QValueAxis>(this, Qt::AlignLeft);
        log_axis_ = make_axis<QLogValueAxis>(this, Qt::AlignLeft);
        log_axis_->setBase(10);
        log_axis_->setLabelFormat(QStringLiteral("%.0f"));
        log_axis_->setMinorTickCount(8);
        log_axis_->setMinorGridLineColor(QColor(0xF0, 0xF0, 0xF0));
        needed_ = new QLineSeries(this);
        allowed_ = new QLineSeries(this);
        hidden_ = new QScatterSeries(this);
        hidden_->setMarkerShape(QScatterSeries::MarkerShapeCircle);
        hidden_->setMarkerSize(hidden_marker_px);
        hidden_->setBorderColor(Qt::white);
        for (QXYSeries* s : allSeries()) {
            addSeries(s);  // in order: the hidden markers over the lines
            s->attachAxis(gpus_axis_);
            s->attachAxis(linear_axis_);
        }
        log_axis_->hide();
        setModel(build_fsdp_model({}));
    }

    static QString defaultTitle(const Model& m) { return m.default_title; }

    void setModel(Model m) {
        model_ = std::move(m);
        needed_->setPen(QPen(model_.needed_color, line_px));
        allowed_->setPen(QPen(model_.allowed_color, line_px));
        for (QLineSeries* line : {needed_, allowed_}) {
            line->setPointsVisible(true);
            line->setMarkerSize(7);
        }
        hidden_->setColor(model_.hidden_color);
        needed_->setName(model_.needed_name);
        allowed_->setName(model_.allowed_name);
        hidden_->setName(model_.hidden_name);
        needed_->replace(positions(model_.needed));
        allowed_->replace(positions(model_.allowed));
        hidden_->replace(QList<QPointF>(model_.hidden.begin(), model_.hidden.end()));
        showAxes();
        setMessage(model_.message);
        setDefaultTitle(defaultTitle(model_));
        placeOverlays();
    }

    QString tooltipAt(QPointF pos) override {
        const FsdpMarker* nearest = nullptr;
        qreal best = hover_radius_px;
        for (const auto* markers : {&model_.needed, &model_.allowed}) {
            for (const FsdpMarker& m : *markers) {
                const qreal d = QLineF(pos, mapToPosition(m.pos, needed_)).length();
                if (d <= best) {
                    best = d;
                    nearest = &m;
                }
            }
        }
        return nearest ? nearest->tooltip : QString();
    }

private:
    [[nodiscard]] std::vector<QXYSeries*> allSeries() const { return {needed_, allowed_, hidden_}; }

    void showAxes() {
        const bool drawn = !model_.empty();
        gpus_axis_->setVisible(drawn);
        gpus_axis_->setRange(model_.x_min, model_.x_max);
        gpus_axis_->setTitleText(model_.x_title);
        QAbstractAxis* y_now = model_.log_y ? static_cast<QAbstractAxis*>(log_axis_) : linear_axis_;
        QAbstractAxis* y_other = model_.log_y ? static_cast<QAbstractAxis*>(linear_axis_) : log_axis_;
        for (QXYSeries* s : allSeries()) {
            if (s->attachedAxes().contains(y_other)) s->detachAxis(y_other);
            if (!s->attachedAxes().contains(y_now)) s->attachAxis(y_now);
        }
        y_other->setVisible(false);
        y_now->setVisible(drawn);
        linear_axis_->setRange(model_.y_axis.min, model_.y_axis.max);
        linear_axis_->setTickCount(model_.y_axis.tick_count);
        linear_axis_->setLabelFormat(model_.y_axis.label_format);
        linear_axis_->setTitleText(model_.y_axis.title);
        log_axis_->setRange(model_.y_log_min, model_.y_log_max);
        log_axis_->setTitleText(model_.y_axis.title);
    }

    std::vector<LegendEntry> legendEntries() const override {
        std::vector<LegendEntry> entries;
        if (model_.empty()) return entries;
        entries.push_back({model_.needed_name, model_.needed_color, Swatch::line});
        entries.push_back({model_.allowed_name, model_.allowed_color, Swatch::line});
        if (!model_.hidden.empty()) entries.push_back({model_.hidden_name, model_.hidden_color, Swatch::dot});
        if (!model_.not_drawn.isEmpty()) entries.push_back({model_.not_drawn, QColor(), Swatch::none});
        return entries;
    }

    Model model_;
    QLogValueAxis* gpus_axis_ = nullptr;
    QValueAxis* linear_axis_ = nullptr;
    QLogValueAxis* log_axis_ = nullptr;
    QLineSeries* needed_ = nullptr;
    QLineSeries* allowed_ = nullptr;
    QScatterSeries* hidden_ = nullptr;
};

class QtFsdpChartView final : public HostedView<FsdpChartView, FsdpQChart> {
public:
    explicit QtFsdpChartView(QWidget* parent) : HostedView(parent, QStringLiteral("FSDP balance chart")) {
        host_.setModel(build_fsdp_model({}));
    }
    void setPoints(const std::vector<FsdpPoint>& points) override { host_.setModel(build_fsdp_model(points)); }
};

}  // namespace

std::unique_ptr<FsdpChartView> make_fsdp_chart(QWidget* parent) { return std::make_unique<QtFsdpChartView>(parent); }

}  // namespace comet::ui
