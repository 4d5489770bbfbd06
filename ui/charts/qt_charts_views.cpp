// Qt Charts implementation of chart_views.hpp.

#include <QBarSet>
#include <QFile>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QHorizontalStackedBarSeries>
#include <QLineSeries>
#include <QPainter>
#include <QPointer>
#include <QSvgGenerator>
#include <QValueAxis>
#include <algorithm>
#include <optional>

#include "chart_views.hpp"
#include "qt_stacked_bars.hpp"

namespace comet::ui {
namespace {

const QColor& text_dark = chart_text_color;
const QColor alarm{0xD5, 0x5E, 0x00};  // Okabe-Ito vermillion
const QColor capacity_ok{0x33, 0x33, 0x33};

class BreakdownQChart final : public StackedBarsChart {
public:
    using Model = BreakdownSeriesModel;

    BreakdownQChart() : StackedBarsChart(time_categories()) {
        setBaseTitle(QStringLiteral("Iteration time breakdown"));
        setModel({});
    }

    void setModel(Model m) {
        model_ = std::move(m);
        showModel(model_);
    }

private:
    QString segmentTip(std::size_t category, std::size_t bar) const override {
        return segment_tooltip(model_, category, bar);
    }

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
        setBaseTitle(QStringLiteral("Memory per accelerator"));
        setModel({});
    }

    void setModel(Model m) {
        model_ = std::move(m);
        setTitleBrush(model_.any_over_capacity() ? alarm : text_dark);
        showModel(model_);
        updateCapacityMarks();
    }

private:
    QString titleSuffix() const override { return model_.title_suffix; }

    double markValue(std::size_t tier) const override {
        return tier < model_.capacity_gib.size() && model_.capacity_gib[tier] > 0 ? model_.capacity_gib[tier] : -1;
    }

    QString segmentTip(std::size_t category, std::size_t bar) const override {
        return segment_tooltip(model_, category, bar);
    }

    QColor totalLabelColor(std::size_t bar) const override {
        return bar < model_.over_capacity.size() && model_.over_capacity[bar] ? alarm : text_dark;
    }

    std::vector<LegendEntry> extraLegendEntries() const override {
        const bool any = std::any_of(model_.capacity_gib.begin(), model_.capacity_gib.end(), [](double c) { return c > 0; });
        if (!any) return {};
        return {{QStringLiteral("Capacity"), model_.any_over_capacity() ? alarm : capacity_ok, true}};
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
        for (std::size_t t = 0; t < std::max(n, marks_.size()); ++t)
            capacityMark(t)->setVisible(t < n && model_.capacity_gib[t] > 0);
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

// Owns the live widget and the last data; exports lay out a fresh chart at the requested size
// so that the widget on screen is never resized behind the user's back.
template <class ChartT>
class ChartHost {
public:
    explicit ChartHost(QWidget* parent) : chart_(new ChartT), view_(new TipChartView(chart_, parent)) {
        view_->tip = [chart = chart_](QPointF pos) { return chart->tooltipAt(pos); };
    }
    ~ChartHost() { delete view_.data(); }
    ChartHost(const ChartHost&) = delete;
    ChartHost& operator=(const ChartHost&) = delete;

    QWidget* widget() { return view_; }

    void setModel(typename ChartT::Model m) {
        model_ = std::move(m);
        if (view_) chart_->setModel(model_);
    }

    void setTitle(const QString& title) {
        title_ = title;
        if (view_) chart_->setBaseTitle(title);
    }

    QImage toImage(QSize size, qreal dpr) const {
        QImage image(size * dpr, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(dpr);
        image.fill(Qt::white);
        QPainter painter(&image);
        renderDetached(painter, size);
        return image;
    }

    bool saveSvg(const QString& path, const QString& title) const {
        const QSize size = exportSize();
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
        QSvgGenerator svg;
        svg.setOutputDevice(&file);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(title);
        svg.setDescription(QStringLiteral("COMET Explorer chart"));
        QPainter painter;
        if (!painter.begin(&svg)) return false;
        renderDetached(painter, size);
        return painter.end();
    }

private:
    void renderDetached(QPainter& painter, QSize size) const {
        QGraphicsScene scene;
        auto* chart = new ChartT;  // owned by the scene
        scene.addItem(chart);
        if (title_) chart->setBaseTitle(*title_);
        chart->setGeometry(QRectF(QPointF(0, 0), QSizeF(size)));
        chart->setModel(model_);
        // Laying out can move the plot and the overlays, and they can ask for another pass.
        for (int pass = 0; pass < 3; ++pass) chart->layout()->activate();
        painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
        const QRectF area(QPointF(0, 0), QSizeF(size));
        scene.render(&painter, area, area);
    }

    QSize exportSize() const {
        const QSize fallback(800, 420);
        if (!view_ || view_->width() < 320 || view_->height() < 200) return fallback;
        return view_->size();
    }

    ChartT* chart_;  // owned by view_
    QPointer<TipChartView> view_;
    typename ChartT::Model model_;
    std::optional<QString> title_;
};

class QtBreakdownChartView final : public BreakdownChartView {
public:
    explicit QtBreakdownChartView(QWidget* parent) : host_(parent) {
        host_.widget()->setAccessibleName(QStringLiteral("Iteration time breakdown chart"));
    }
    QWidget* widget() override { return host_.widget(); }
    void setBars(const std::vector<BreakdownBar>& bars) override { host_.setModel(build_breakdown_model(bars)); }
    void setTitle(const QString& title) override { host_.setTitle(title); }
    QImage toImage(QSize size, qreal dpr) override { return host_.toImage(size, dpr); }
    bool saveSvg(const QString& path, const QString& title) override { return host_.saveSvg(path, title); }

private:
    ChartHost<BreakdownQChart> host_;
};

class QtMemoryChartView final : public MemoryChartView {
public:
    explicit QtMemoryChartView(QWidget* parent) : host_(parent) {
        host_.widget()->setAccessibleName(QStringLiteral("Memory per accelerator chart"));
    }
    QWidget* widget() override { return host_.widget(); }
    void setTiers(const std::vector<MemoryBar>& tiers) override { host_.setModel(build_memory_model(tiers)); }
    void setTitle(const QString& title) override { host_.setTitle(title); }
    QImage toImage(QSize size, qreal dpr) override { return host_.toImage(size, dpr); }
    bool saveSvg(const QString& path, const QString& title) override { return host_.saveSvg(path, title); }

private:
    ChartHost<MemoryQChart> host_;
};

}  // namespace

std::unique_ptr<BreakdownChartView> make_breakdown_chart(QWidget* parent) {
    return std::make_unique<QtBreakdownChartView>(parent);
}

std::unique_ptr<MemoryChartView> make_memory_chart(QWidget* parent) {
    return std::make_unique<QtMemoryChartView>(parent);
}

}  // namespace comet::ui
