#include "qt_stacked_bars.hpp"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QGraphicsSimpleTextItem>
#include <QHorizontalStackedBarSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <optional>

namespace comet::ui {
namespace {

constexpr qreal max_bar_px = 48;  // one or two bars would otherwise fill the whole plot
constexpr qreal max_bar_share = 0.6;

}  // namespace

StackedBarsChart::StackedBarsChart(std::span<const StackCategory> categories) {
    series_ = new QHorizontalStackedBarSeries(this);
    series_->setBarWidth(max_bar_share);
    for (const StackCategory& c : categories) {
        auto* set = new QBarSet(c.name, series_);
        set->setColor(c.color);
        set->setBorderColor(Qt::white);  // a hairline between adjacent segments
        series_->append(set);
        sets_.push_back(set);
    }
    addSeries(series_);

    category_axis_ = new QBarCategoryAxis(this);
    category_axis_->setGridLineVisible(false);
    category_axis_->setLabelsFont(chart_font(10));
    addAxis(category_axis_, Qt::AlignLeft);
    series_->attachAxis(category_axis_);

    value_axis_ = new QValueAxis(this);
    value_axis_->setLabelsFont(chart_font(10));
    value_axis_->setTitleFont(chart_font(10));
    value_axis_->setGridLineColor(QColor(0xDD, 0xDD, 0xDD));
    addAxis(value_axis_, Qt::AlignBottom);
    series_->attachAxis(value_axis_);
    setMessage(QStringLiteral("No data"));
}

// The subclass's model is already gone.
StackedBarsChart::~StackedBarsChart() { model_ = nullptr; }

void StackedBarsChart::showModel(const StackedBarsModel& m) {
    model_ = &m;
    for (std::size_t c = 0; c < sets_.size() && c < m.series.size(); ++c) setValues(sets_[c], m.series[c].values);
    const bool has_data = !m.empty();
    category_axis_->setVisible(has_data);
    value_axis_->setVisible(has_data);
    setMessage(has_data ? QString() : m.empty_message.isEmpty() ? QStringLiteral("No data") : m.empty_message);
    categories_width_ = -1;
    categories_room_ = {};
    updateCategories();
    updateAxes(m);
    refreshTitle();
    placeOverlays();
}

void StackedBarsChart::setValues(QBarSet* set, const std::vector<double>& values) {
    const auto n = static_cast<int>(values.size());  // QBarSet indexes with int
    if (set->count() != n) set->remove(0, set->count());
    for (int row = 0; row < n; ++row) {
        const double v = values[rowOf(static_cast<std::size_t>(row))];
        if (row >= set->count())
            set->append(v);
        else if (set->at(row) != v)
            set->replace(row, v);
    }
}

void StackedBarsChart::updateAxes(const StackedBarsModel& m) {
    value_axis_->setRange(m.axis.min, m.axis.max);
    value_axis_->setTickCount(m.axis.tick_count);
    value_axis_->setLabelFormat(m.axis.label_format);
    value_axis_->setTitleText(m.axis.title);
}

// Long labels wrap, onto as many lines as their rows have room for (categoryLabelRoom(): what Qt
// Charts draws whole), each line no wider than the axis may be; a label may take a wider column
// (up to what Qt Charts allows) to need fewer lines. Only when the full labels cannot fit so do
// bars with a short label ("Pin 2") show that, and only then are labels elided (the tooltips
// carry them whole).
void StackedBarsChart::updateCategories() {
    if (!model_) return;
    const QFont font = category_axis_->labelsFont();
    const QSizeF room = categoryLabelRoom(static_cast<int>(model_->bar_count()));
    if (categories_width_ == size().width() && categories_room_ == room) return;
    categories_width_ = size().width();
    categories_room_ = room;
    auto fits = [&](const QStringList& labels) {
        return std::all_of(labels.begin(), labels.end(), [&](const QString& l) {
            const QSizeF box = axis_label_box(l, font);
            return box.width() <= room.width() && box.height() <= room.height();
        });
    };
    auto fitting = [&](const std::vector<QString>& texts) -> std::optional<QStringList> {
        for (qreal share : {0.3, 0.35, 0.4})
            if (QStringList l = category_labels(texts, font, categories_width_, share, true); fits(l)) return l;
        return std::nullopt;
    };
    // The full labels; else the short ones ("Pin 2") where there are; else elided, on the lines
    // that fit.
    std::optional<QStringList> labels = fitting(model_->bar_labels);
    if (!labels && model_->bar_short_labels.size() == model_->bar_labels.size()) {
        std::vector<QString> shorter = model_->bar_labels;
        for (std::size_t b = 0; b < shorter.size(); ++b)
            if (!model_->bar_short_labels[b].isEmpty()) shorter[b] = model_->bar_short_labels[b];
        labels = fitting(shorter);
    }
    for (int lines = 3; !labels && lines >= 1; --lines)
        if (QStringList l = category_labels(model_->bar_labels, font, categories_width_, 0.3, false, lines); fits(l) || lines == 1)
            labels = l;
    if (*labels != category_axis_->categories()) category_axis_->setCategories(*labels);
}

void StackedBarsChart::placeContent() {
    for (auto* item : segment_items_) item->hide();
    for (auto* item : total_items_) item->hide();
    if (!model_ || model_->empty()) return;
    updateCategories();  // the plot's height is known now
    fitBarWidth();
    placeSegmentLabels();
    placeTotals();
    placeExtras();
}

void StackedBarsChart::fitBarWidth() {
    const qreal band = plotArea().height() / static_cast<qreal>(model_->bar_count());
    if (!(band > 0)) return;
    const qreal width = std::clamp(max_bar_px / band, 0.2, max_bar_share);
    if (std::abs(series_->barWidth() - width) > 1e-3) series_->setBarWidth(width);
}

std::size_t StackedBarsChart::rowOf(std::size_t bar) const { return model_ ? model_->bar_count() - 1 - bar : 0; }

qreal StackedBarsChart::barWidth() const { return series_->barWidth(); }

void StackedBarsChart::placeSegmentLabels() {
    const StackedBarsModel& m = *model_;
    std::size_t used = 0;
    for (std::size_t b = 0; b < m.bar_count(); ++b) {
        const auto y = static_cast<qreal>(rowOf(b));
        const double mark = markValue(b);
        const qreal mark_x = mark >= 0 ? mapToPosition(QPointF(mark, y), series_).x() : -1;
        double start = 0;
        for (const StackSeries& s : m.series) {
            const double v = s.values[b];
            if (!s.segment_labels[b].isEmpty()) {
                auto* item = overlayText(segment_items_, used);
                item->setText(s.segment_labels[b]);
                item->setBrush(readable_text_on(s.color));
                const QPointF left = mapToPosition(QPointF(start, y), series_);
                const QPointF right = mapToPosition(QPointF(start + v, y), series_);
                if (placeInSpan(item, left, right, mark_x)) ++used;
            }
            start += v;
        }
    }
}

// Centres the label in the segment, or in the wider part beside a mark that crosses it.
bool StackedBarsChart::placeInSpan(QGraphicsSimpleTextItem* item, QPointF left, QPointF right, qreal mark_x) {
    const QRectF r = item->boundingRect();
    const qreal needed = r.width() + 2 * label_padding;
    if (mark_x > left.x() && mark_x < right.x()) {
        const QPointF at_mark(mark_x, left.y());
        if (mark_x - left.x() < right.x() - mark_x)
            left = at_mark;
        else
            right = at_mark;
    }
    if (needed > right.x() - left.x()) return false;
    item->setPos((left + right) / 2 - r.center());
    item->show();
    return true;
}

void StackedBarsChart::placeTotals() {
    const StackedBarsModel& m = *model_;
    for (std::size_t b = 0; b < m.bar_count(); ++b) {
        auto* item = overlayText(total_items_, b);
        item->setText(m.total_labels[b]);
        item->setBrush(totalLabelColor(b));
        const QPointF end = mapToPosition(QPointF(m.totals[b], static_cast<qreal>(rowOf(b))), series_);
        const QRectF r = item->boundingRect();
        qreal x = end.x() + label_padding;
        // A mark (the memory chart's capacity line) just past the bar's end would run through
        // the label: the label starts after the mark instead.
        const double mark = markValue(b);
        const qreal right_edge = rect().right() - r.width() - 2;
        if (mark >= 0) {
            const qreal mark_x = mapToPosition(QPointF(mark, static_cast<qreal>(rowOf(b))), series_).x();
            if (mark_x >= x - label_padding && mark_x <= x + r.width() + label_padding) {
                const qreal after = mark_x + label_padding;
                const qreal before = mark_x - label_padding - r.width();  // between the bar's end and the line
                if (after <= right_edge || before < x)
                    x = after;
                else
                    x = before;
            }
        }
        x = std::min(x, right_edge);
        item->setPos(x, end.y() - r.height() / 2);
        item->show();
    }
}

QString StackedBarsChart::tooltipAt(QPointF pos) {
    if (!model_ || model_->empty()) return {};
    const QPointF v = mapToValue(pos, series_);
    const auto row = static_cast<long>(std::lround(v.y()));
    if (row < 0 || row >= static_cast<long>(model_->bar_count()) || std::abs(v.y() - static_cast<double>(row)) > barWidth() / 2) return {};
    const std::size_t b = rowOf(static_cast<std::size_t>(row));
    if (pos.x() < plotArea().left()) return model_->bar_labels[b];
    double start = 0;
    for (std::size_t c = 0; c < model_->series.size(); ++c) {
        const double value = model_->series[c].values[b];
        if (value > 0 && v.x() >= start && v.x() < start + value) return segmentTip(c, b);
        start += value;
    }
    return {};
}

QColor StackedBarsChart::totalLabelColor(std::size_t) const { return chart_text_color; }

std::vector<OverlayChart::LegendEntry> StackedBarsChart::legendEntries() const {
    std::vector<LegendEntry> entries;
    if (!model_ || model_->empty()) return entries;
    for (const StackSeries& s : model_->series)
        if (!s.all_zero) entries.push_back({s.name, s.color, Swatch::box});
    for (LegendEntry& e : extraLegendEntries()) entries.push_back(std::move(e));
    return entries;
}

}  // namespace comet::ui
