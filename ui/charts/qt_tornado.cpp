// Qt Charts implementation of TornadoChartView: grouped horizontal bars (the low side above the
// high side in each row) on a percent axis symmetric around 0, with the values, the zero line and
// infeasible sides drawn as overlays.

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QHorizontalBarSeries>
#include <QFontMetricsF>
#include <QPen>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <optional>

#include "chart_model.hpp"
#include "chart_views.hpp"
#include "qt_chart_host.hpp"
#include "qt_overlay_chart.hpp"

namespace comet::ui {
namespace {

constexpr double default_fraction = 0.1;
constexpr qreal max_sub_bar_px = 20;  // a row holds two bars; few rows would make them fat
constexpr qreal min_bar_share = 0.3;
constexpr qreal max_bar_share = 0.8;
constexpr int low_set = 1;  // Qt Charts stacks a row's sets from the bottom: low on top
constexpr int high_set = 0;
constexpr int set_count = 2;
const QColor hatch_grey{0x70, 0x70, 0x70};
const QColor zero_line{0x40, 0x40, 0x40};

class TornadoQChart final : public OverlayChart {
public:
    using Model = TornadoModel;

    TornadoQChart() {
        series_ = new QHorizontalBarSeries(this);
        high_ = new QBarSet(QStringLiteral("high"), series_);
        low_ = new QBarSet(QStringLiteral("low"), series_);
        series_->append(high_);  // set 0
        series_->append(low_);   // set 1
        addSeries(series_);

        rows_axis_ = new QBarCategoryAxis(this);
        rows_axis_->setGridLineVisible(false);
        rows_axis_->setLabelsFont(chart_font(10));
        addAxis(rows_axis_, Qt::AlignLeft);
        series_->attachAxis(rows_axis_);

        change_axis_ = new QValueAxis(this);
        change_axis_->setLabelsFont(chart_font(10));
        change_axis_->setTitleFont(chart_font(10));
        change_axis_->setGridLineColor(QColor(0xDD, 0xDD, 0xDD));
        addAxis(change_axis_, Qt::AlignBottom);
        series_->attachAxis(change_axis_);

        zero_ = new QGraphicsLineItem(this);
        zero_->setPen(QPen(zero_line, 1.5));
        zero_->setZValue(overlay_z - 1);
        setModel(build_tornado_model({}, default_fraction));
    }

    static QString defaultTitle(const Model& m) { return m.default_title; }

    void setModel(Model m) {
        model_ = std::move(m);
        low_->setColor(model_.low_color);
        low_->setBorderColor(model_.low_color);
        high_->setColor(model_.high_color);
        high_->setBorderColor(model_.high_color);
        std::vector<double> low, high;  // bottom row first, as Qt Charts counts
        for (auto it = model_.rows.rbegin(); it != model_.rows.rend(); ++it) {
            low.push_back(it->low.change_pct);
            high.push_back(it->high.change_pct);
        }
        setValues(low_, low);
        setValues(high_, high);
        const bool has_data = !model_.empty();
        rows_axis_->setVisible(has_data);
        change_axis_->setVisible(has_data);
        change_axis_->setRange(model_.axis.min, model_.axis.max);
        change_axis_->setTickCount(model_.axis.tick_count);
        change_axis_->setLabelFormat(model_.axis.label_format);
        change_axis_->setTitleText(model_.axis.title);
        setMessage(model_.message);
        setDefaultTitle(defaultTitle(model_));
        categories_width_ = -1;
        resized();
        placeOverlays();
    }

    QString tooltipAt(QPointF pos) override {
        const auto hit = rowAt(pos);
        if (!hit) return {};
        const TornadoRow& row = model_.rows[hit->row];
        if (pos.x() < plotArea().left()) return row.label;
        return hit->low ? row.low.tooltip : row.high.tooltip;
    }

private:
    struct Hit {
        std::size_t row;
        bool low;
    };

    static void setValues(QBarSet* set, const std::vector<double>& values) {
        if (set->count() != static_cast<int>(values.size())) set->remove(0, set->count());
        for (std::size_t i = 0; i < values.size(); ++i) {
            const auto at = static_cast<int>(i);  // QBarSet indexes with int
            if (at >= set->count())
                set->append(values[i]);
            else if (set->at(at) != values[i])
                set->replace(at, values[i]);
        }
    }

    [[nodiscard]] qreal qtRow(std::size_t row) const { return static_cast<qreal>(model_.rows.size() - 1 - row); }

    // Vertical extent of one side's bar, in axis values.
    [[nodiscard]] std::pair<qreal, qreal> sideSpan(std::size_t row, bool low) const {
        const qreal width = series_->barWidth();
        const qreal bottom = qtRow(row) - width / 2 + (low ? low_set : high_set) * width / set_count;
        return {bottom, bottom + width / set_count};
    }

    [[nodiscard]] std::optional<Hit> rowAt(QPointF pos) {  // QChart::mapToValue is not const
        if (model_.empty()) return std::nullopt;
        const QPointF v = mapToValue(pos, series_);
        const auto qt_row = std::lround(v.y());
        if (qt_row < 0 || qt_row >= static_cast<long>(model_.rows.size())) return std::nullopt;
        const std::size_t row = model_.rows.size() - 1 - static_cast<std::size_t>(qt_row);
        const auto [low_bottom, low_top] = sideSpan(row, true);
        const auto [high_bottom, high_top] = sideSpan(row, false);
        if (v.y() >= low_bottom && v.y() <= low_top) return Hit{row, true};
        if (v.y() >= high_bottom && v.y() <= high_top) return Hit{row, false};
        return std::nullopt;
    }

    std::vector<LegendEntry> legendEntries() const override {
        if (model_.empty()) return {};
        std::vector<LegendEntry> entries{{model_.low_name, model_.low_color, Swatch::box},
                                         {model_.high_name, model_.high_color, Swatch::box}};
        if (model_.any_infeasible()) entries.push_back({QStringLiteral("no feasible strategy"), hatch_grey, Swatch::hatched});
        return entries;
    }

    // Row labels wrap and are never elided; placeContent() asks for rows tall enough for them.
    void resized() override {
        if (categories_width_ == size().width()) return;
        categories_width_ = size().width();
        std::vector<QString> labels;
        for (const TornadoRow& r : model_.rows) labels.push_back(r.label);
        const QStringList categories = category_labels(labels, rows_axis_->labelsFont(), categories_width_, 0.3, true);
        if (categories != rows_axis_->categories()) rows_axis_->setCategories(categories);
    }

    void placeContent() override {
        for (auto* item : value_items_) item->hide();
        for (auto* item : hatch_items_) item->hide();
        for (auto* item : backdrop_items_) item->hide();
        zero_->hide();
        if (model_.empty()) return;
        int lines = 1;
        for (const QString& c : rows_axis_->categories()) lines = std::max(lines, static_cast<int>(c.count(QStringLiteral("<br>"))) + 1);
        needRowHeight(static_cast<int>(model_.rows.size()), lines, rows_axis_->labelsFont());
        fitAxisTitle();
        fitBarWidth();
        const qreal x0 = mapToPosition(QPointF(0, 0), series_).x();
        zero_->setLine(x0, plotArea().top(), x0, plotArea().bottom());
        zero_->show();
        std::size_t labels = 0, hatches = 0;
        for (std::size_t r = 0; r < model_.rows.size(); ++r) {
            for (bool low : {true, false}) {
                const TornadoSide& side = low ? model_.rows[r].low : model_.rows[r].high;
                const QColor color = low ? model_.low_color : model_.high_color;
                auto* text = overlayText(value_items_, labels++);
                text->setText(side.text);
                if (side.feasible)
                    placeValue(text, r, low, side.change_pct, color);
                else
                    placeInfeasible(text, r, low, color, hatches++);
            }
        }
    }

    // Qt Charts cuts an axis title wider than the plot with "..." ("..., negative = fas..." in a
    // narrow pane): the title then wraps at spaces onto lines as wide as the plot. The plot's
    // width does not depend on the title's lines, so this settles at once.
    void fitAxisTitle() {
        const QString& full = model_.axis.title;
        const QFont font = change_axis_->titleFont();
        const qreal room = plotArea().width() - 1;
        QString title = full.toHtmlEscaped();
        if (room > 0 && axis_label_box(title, font).width() > room) {
            const QFontMetricsF fm(font);
            const qreal text_room = room - 2;  // the box's document margin
            // At its clauses first ("... time (%)," / "negative = faster"), else at any space.
            QStringList lines = full.split(QStringLiteral(", "));
            for (qsizetype i = 0; i + 1 < lines.size(); ++i) lines[i] += QLatin1Char(',');
            const bool clauses_fit = lines.size() > 1 && std::all_of(lines.begin(), lines.end(), [&](const QString& l) {
                                         return fm.horizontalAdvance(l) <= text_room;
                                     });
            if (!clauses_fit) lines.clear();
            for (const QString& word : clauses_fit ? QStringList{} : full.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
                if (!lines.isEmpty() && fm.horizontalAdvance(lines.back() + QLatin1Char(' ') + word) <= text_room)
                    lines.back() += QLatin1Char(' ') + word;
                else
                    lines << word;
            }
            for (QString& l : lines) l = l.toHtmlEscaped();
            title = lines.join(QStringLiteral("<br>"));
        }
        if (title != change_axis_->titleText()) change_axis_->setTitleText(title);
    }

    void fitBarWidth() {
        const qreal band = plotArea().height() / static_cast<qreal>(model_.rows.size());
        if (!(band > 0)) return;
        const qreal width = std::clamp(set_count * max_sub_bar_px / band, min_bar_share, max_bar_share);
        if (std::abs(series_->barWidth() - width) > 1e-3) series_->setBarWidth(width);
    }

    // Beyond the bar's end, on the side it grows to; inside the end when there is no room outside.
    void placeValue(QGraphicsSimpleTextItem* text, std::size_t row, bool low, double pct, const QColor& color) {
        const auto [bottom, top] = sideSpan(row, low);
        const QPointF end = mapToPosition(QPointF(pct, (bottom + top) / 2), series_);
        const QRectF r = text->boundingRect();
        const bool grows_right = pct >= 0;
        qreal x = grows_right ? end.x() + label_padding : end.x() - label_padding - r.width();
        const bool outside = grows_right ? x + r.width() <= plotArea().right() : x >= plotArea().left();
        if (!outside) x = grows_right ? end.x() - label_padding - r.width() : end.x() + label_padding;
        text->setBrush(outside ? chart_text_color : readable_text_on(color));
        text->setPos(x, end.y() - r.height() / 2);
        text->show();
    }

    // No time to compare: the bar runs hatched to the slow end of the axis (no strategy fits,
    // as if the time were unbounded), with "infeasible" on a white patch near the zero line.
    void placeInfeasible(QGraphicsSimpleTextItem* text, std::size_t row, bool low, const QColor& color, std::size_t i) {
        while (hatch_items_.size() <= i) {
            auto* hatch = new QGraphicsRectItem(this);
            hatch->setZValue(overlay_z - 2);
            hatch_items_.push_back(hatch);
            auto* backdrop = new QGraphicsRectItem(this);
            backdrop->setPen(Qt::NoPen);
            backdrop->setBrush(Qt::white);
            backdrop->setZValue(overlay_z - 1);
            backdrop_items_.push_back(backdrop);
        }
        const auto [bottom, top] = sideSpan(row, low);
        const QPointF top_left = mapToPosition(QPointF(0, top), series_);
        const QPointF bottom_right = mapToPosition(QPointF(model_.axis.max, bottom), series_);
        const QRectF bar(top_left, bottom_right);
        hatch_items_[i]->setRect(bar);
        hatch_items_[i]->setBrush(QBrush(color, Qt::BDiagPattern));
        hatch_items_[i]->setPen(QPen(color, 1));
        hatch_items_[i]->show();
        const QRectF r = text->boundingRect();
        text->setBrush(chart_text_color);
        text->setPos(bar.left() + 2 * label_padding, bar.center().y() - r.height() / 2);
        backdrop_items_[i]->setRect(text->mapRectToParent(r).adjusted(-3, 0, 3, 0).intersected(bar.adjusted(1, 1, -1, -1)));
        backdrop_items_[i]->show();
        text->show();
    }

    Model model_;
    QHorizontalBarSeries* series_ = nullptr;
    QBarSet* low_ = nullptr;
    QBarSet* high_ = nullptr;
    QBarCategoryAxis* rows_axis_ = nullptr;
    QValueAxis* change_axis_ = nullptr;
    QGraphicsLineItem* zero_ = nullptr;
    std::vector<QGraphicsSimpleTextItem*> value_items_;
    std::vector<QGraphicsRectItem*> hatch_items_;
    std::vector<QGraphicsRectItem*> backdrop_items_;
    qreal categories_width_ = -1;  // chart width the row labels were elided for
};

class QtTornadoChartView final : public HostedView<TornadoChartView, TornadoQChart> {
public:
    explicit QtTornadoChartView(QWidget* parent) : HostedView(parent, QStringLiteral("Sensitivity tornado chart")) {
        host_.setModel(build_tornado_model({}, default_fraction));
    }
    void setBars(const std::vector<SensitivityBar>& bars, double fraction) override { host_.setModel(build_tornado_model(bars, fraction)); }
};

}  // namespace

std::unique_ptr<TornadoChartView> make_tornado_chart(QWidget* parent) { return std::make_unique<QtTornadoChartView>(parent); }

}  // namespace comet::ui
