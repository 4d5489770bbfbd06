// Qt Charts implementation of the breakdown and memory views of chart_views.hpp.

#include <QLineSeries>
#include <QPen>
#include <QValueAxis>
#include <algorithm>

#include "chart_views.hpp"
#include "qt_chart_host.hpp"
#include "qt_stacked_bars.hpp"

namespace comet::ui {
namespace {

const QColor& text_dark = chart_text_color;
const QColor alarm{0xD5, 0x5E, 0x00};  // Okabe-Ito vermillion
const QColor capacity_ok{0x33, 0x33, 0x33};

class BreakdownQChart final : public StackedBarsChart {
public:
    using Model = BreakdownSeriesModel;

    BreakdownQChart() : StackedBarsChart(time_categories()) { setModel({}); }

    static QString defaultTitle(const Model&) { return QStringLiteral("Iteration time breakdown"); }

    void setModel(Model m) {
        model_ = std::move(m);
        setDefaultTitle(defaultTitle(model_));
        showModel(model_);
    }

private:
    QString segmentTip(std::size_t category, std::size_t bar) const override { return segment_tooltip(model_, category, bar); }

    Model model_;
};

class MemoryQChart final : public StackedBarsChart {
public:
    using Model = MemorySeriesModel;

    MemoryQChart() : StackedBarsChart(memory_categories()) {
        // Capacity marks are line series on a hidden axis that matches the category bands.
        band_axis_ = new QValueAxis(this);
        band_axis_->setVisible(false);
        addAxis(band_axis_, Qt::AlignLeft);
        setModel({});
    }

    static QString defaultTitle(const Model&) { return QStringLiteral("Memory per accelerator"); }

    void setModel(Model m) {
        model_ = std::move(m);
        setDefaultTitle(defaultTitle(model_));
        setTitleBrush(model_.any_over_capacity() ? alarm : text_dark);
        showModel(model_);
        updateCapacityMarks();
    }

private:
    QString titleSuffix() const override { return model_.title_suffix; }

    double markValue(std::size_t tier) const override {
        return tier < model_.capacity_gib.size() && model_.capacity_gib[tier] > 0 ? model_.capacity_gib[tier] : -1;
    }

    QString segmentTip(std::size_t category, std::size_t bar) const override { return segment_tooltip(model_, category, bar); }

    QColor totalLabelColor(std::size_t bar) const override {
        return bar < model_.over_capacity.size() && model_.over_capacity[bar] ? alarm : text_dark;
    }

    std::vector<LegendEntry> extraLegendEntries() const override {
        const bool any = std::any_of(model_.capacity_gib.begin(), model_.capacity_gib.end(), [](double c) { return c > 0; });
        if (!any) return {};
        return {{QStringLiteral("Capacity"), model_.any_over_capacity() ? alarm : capacity_ok, Swatch::line}};
    }

    QLineSeries* capacityMark(std::size_t i) {
        while (marks_.size() <= i) {
            auto* line = new QLineSeries(this);
            line->setName(QStringLiteral("Capacity"));
            addSeries(line);
            line->attachAxis(valueAxis());
            line->attachAxis(band_axis_);
            marks_.push_back(line);
        }
        return marks_[i];
    }

    void updateCapacityMarks() {
        const std::size_t n = model_.bar_count();
        band_axis_->setRange(-0.5, static_cast<double>(n) - 0.5);
        for (std::size_t t = 0; t < std::max(n, marks_.size()); ++t) capacityMark(t)->setVisible(t < n && model_.capacity_gib[t] > 0);
        placeExtras();
    }

    // A short vertical line across the tier's bar, redrawn when the bar thickness changes.
    void placeExtras() override {
        for (std::size_t t = 0; t < model_.bar_count() && t < marks_.size(); ++t) {
            if (!(model_.capacity_gib[t] > 0)) continue;
            const double cap = model_.capacity_gib[t];
            const auto y = static_cast<double>(rowOf(t));
            const double half = barWidth() / 2 + 0.06;  // reaches a little past the bar
            marks_[t]->replace(QList<QPointF>{{cap, y - half}, {cap, y + half}});
            const bool over = model_.over_capacity[t];
            marks_[t]->setPen(QPen(over ? alarm : capacity_ok, over ? 3.0 : 2.0, over ? Qt::SolidLine : Qt::DashLine));
        }
    }

    Model model_;
    QValueAxis* band_axis_ = nullptr;
    std::vector<QLineSeries*> marks_;  // one per tier, reused across updates
};

class QtBreakdownChartView final : public WithImageExports<HostedView<BreakdownChartView, BreakdownQChart>> {
public:
    explicit QtBreakdownChartView(QWidget* parent) : WithImageExports(parent, QStringLiteral("Iteration time breakdown chart")) {}
    void setBars(const std::vector<BreakdownBar>& bars) override {
        BreakdownSeriesModel m = build_breakdown_model(bars);
        m.empty_message = empty_message_;
        host_.setModel(std::move(m));
    }
    void setEmptyMessage(const QString& message) override { empty_message_ = message; }

private:
    QString empty_message_;
};

class QtMemoryChartView final : public WithImageExports<HostedView<MemoryChartView, MemoryQChart>> {
public:
    explicit QtMemoryChartView(QWidget* parent) : WithImageExports(parent, QStringLiteral("Memory per accelerator chart")) {}
    void setTiers(const std::vector<MemoryBar>& tiers) override { host_.setModel(build_memory_model(tiers)); }
};

}  // namespace

std::unique_ptr<BreakdownChartView> make_breakdown_chart(QWidget* parent) { return std::make_unique<QtBreakdownChartView>(parent); }

std::unique_ptr<MemoryChartView> make_memory_chart(QWidget* parent) { return std::make_unique<QtMemoryChartView>(parent); }

}  // namespace comet::ui
