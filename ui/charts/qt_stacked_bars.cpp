#include "qt_stacked_bars.hpp"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QHelpEvent>
#include <QHorizontalStackedBarSeries>
#include <QLegend>
#include <QPen>
#include <QToolTip>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace comet::ui {
namespace {

constexpr qreal overlay_z = 50;
constexpr qreal label_padding = 4;  // px between a label and the segment's edges
constexpr qreal max_bar_px = 48;    // one or two bars would otherwise fill the whole plot
constexpr qreal max_bar_share = 0.6;
constexpr int chart_margin = 6;
constexpr qreal swatch_size = 11;
constexpr qreal swatch_gap = 5;     // swatch to its text
constexpr qreal legend_gap = 16;    // between legend entries
constexpr int legend_top_gap = 6;   // between the axis title and the legend
const QColor& text_dark = chart_text_color;

// WCAG relative luminance, to pick the text colour with the higher contrast on a segment.
double luminance(const QColor& c) {
    const auto lin = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF());
}

QColor readable_text_on(const QColor& fill) {
    const double l = luminance(fill);
    const double on_white = 1.05 / (l + 0.05);
    const double on_dark = (l + 0.05) / (luminance(text_dark) + 0.05);
    return on_white >= on_dark ? QColor(Qt::white) : text_dark;
}

QStringList unique_labels(QStringList labels) {
    // QBarCategoryAxis drops duplicate categories; zero-width spaces keep them apart.
    for (qsizetype i = 1; i < labels.size(); ++i)
        while (labels.indexOf(labels[i]) < i) labels[i] += QChar(0x200B);
    return labels;
}

}  // namespace

QFont chart_font(qreal point_size, bool bold) {
    QFont f;
    f.setPointSizeF(point_size);
    f.setBold(bold);
    return f;
}

StackedBarsChart::StackedBarsChart(std::span<const StackCategory> categories) {
    setTheme(QChart::ChartThemeLight);
    setAnimationOptions(QChart::NoAnimation);
    setBackgroundRoundness(0);
    setBackgroundBrush(Qt::white);
    setMargins(QMargins(chart_margin, chart_margin, chart_margin + 4, chart_margin));
    layout()->setContentsMargins(0, 0, 0, 0);
    setTitleFont(chart_font(11, true));
    setTitleBrush(text_dark);
    legend()->hide();  // replaced by placeLegend(), which wraps

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

    no_data_ = new QGraphicsSimpleTextItem(QStringLiteral("No data"), this);
    no_data_->setFont(chart_font(12));
    no_data_->setBrush(QColor(0x70, 0x70, 0x70));
    no_data_->setZValue(overlay_z);

    connect(this, &QChart::plotAreaChanged, this, [this] { placeOverlays(); });
    connect(this, &QGraphicsWidget::geometryChanged, this, [this] {
        refreshTitle();
        updateCategories();
        placeOverlays();
    });
}

// The subclass's model is already gone: no more overlay updates while Qt Charts tears down.
StackedBarsChart::~StackedBarsChart() {
    disconnect(this, nullptr, this, nullptr);
    model_ = nullptr;
}

void StackedBarsChart::setBaseTitle(const QString& title) {
    base_title_ = title;
    refreshTitle();
}

// Qt Charts renders the title as HTML and elides it to one line; a suffix that does not fit
// goes onto a second line instead of being cut off.
void StackedBarsChart::refreshTitle() {
    const QString suffix = titleSuffix();
    QString html = base_title_.toHtmlEscaped();
    if (!suffix.isEmpty()) {
        const QString one_line = base_title_ + QStringLiteral(" — ") + suffix;
        const qreal room = size().width() - 4 * chart_margin;
        const bool fits = QFontMetricsF(titleFont()).horizontalAdvance(one_line) <= room;
        html = fits ? one_line.toHtmlEscaped()
                    : QStringLiteral("<div align=\"center\">") + html + QStringLiteral("<br>") + suffix.toHtmlEscaped() +
                          QStringLiteral("</div>");
    }
    if (html != title()) setTitle(html);
}

void StackedBarsChart::showModel(const StackedBarsModel& m) {
    model_ = &m;
    for (std::size_t c = 0; c < sets_.size() && c < m.series.size(); ++c) setValues(sets_[c], m.series[c].values);
    const bool has_data = !m.empty();
    category_axis_->setVisible(has_data);
    value_axis_->setVisible(has_data);
    no_data_->setVisible(!has_data);
    categories_width_ = -1;
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
    value_axis_->setRange(0, m.axis.max);
    value_axis_->setTickCount(m.axis.tick_count);
    value_axis_->setLabelFormat(m.axis.label_format);
    value_axis_->setTitleText(m.axis.title);
}

// Long labels would squeeze the plot; tooltips carry the full text.
void StackedBarsChart::updateCategories() {
    if (!model_ || categories_width_ == size().width()) return;
    categories_width_ = size().width();
    // Before the first real layout the width means nothing: keep the full text until then.
    const bool laid_out = categories_width_ >= 200;
    const qreal budget = std::clamp(0.3 * categories_width_, 120.0, 280.0);
    const QFontMetricsF fm(category_axis_->labelsFont());
    QStringList labels;
    for (auto it = model_->bar_labels.rbegin(); it != model_->bar_labels.rend(); ++it)
        labels << (laid_out ? elide_bar_label(*it, fm, budget) : *it);
    labels = unique_labels(labels);
    if (labels != category_axis_->categories()) category_axis_->setCategories(labels);
}

QGraphicsSimpleTextItem* StackedBarsChart::overlayText(std::vector<QGraphicsSimpleTextItem*>& pool, std::size_t i) {
    while (pool.size() <= i) {
        auto* item = new QGraphicsSimpleTextItem(this);
        item->setFont(chart_font(10));
        item->setZValue(overlay_z);
        pool.push_back(item);
    }
    return pool[i];
}

void StackedBarsChart::placeOverlays() {
    for (auto* item : segment_items_) item->hide();
    for (auto* item : total_items_) item->hide();
    const QRectF title_free = rect().adjusted(0, 30, 0, 0);
    no_data_->setPos(title_free.center() - no_data_->boundingRect().center());
    placeLegend();
    if (!model_ || model_->empty()) return;
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

std::size_t StackedBarsChart::rowOf(std::size_t bar) const {
    return model_ ? model_->bar_count() - 1 - bar : 0;
}

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
        if (mark_x - left.x() < right.x() - mark_x) left = at_mark;
        else right = at_mark;
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
        const qreal x = std::min(end.x() + label_padding, rect().right() - r.width() - 2);
        item->setPos(x, end.y() - r.height() / 2);
        item->show();
    }
}

QString StackedBarsChart::tooltipAt(QPointF pos) {
    if (!model_ || model_->empty()) return {};
    const QPointF v = mapToValue(pos, series_);
    const auto row = static_cast<long>(std::lround(v.y()));
    if (row < 0 || row >= static_cast<long>(model_->bar_count()) || std::abs(v.y() - static_cast<double>(row)) > barWidth() / 2)
        return {};
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

QColor StackedBarsChart::totalLabelColor(std::size_t) const { return text_dark; }

StackedBarsChart::LegendItem& StackedBarsChart::legendItem(std::size_t i) {
    while (legend_items_.size() <= i) {
        auto* swatch = new QGraphicsRectItem(this);
        swatch->setPen(Qt::NoPen);
        auto* text = new QGraphicsSimpleTextItem(this);
        text->setFont(chart_font(10));
        text->setBrush(text_dark);
        text->setData(overlay_role_key, legend_role);
        for (QGraphicsItem* item : {static_cast<QGraphicsItem*>(swatch), static_cast<QGraphicsItem*>(text)})
            item->setZValue(overlay_z);
        legend_items_.push_back({swatch, text});
    }
    return legend_items_[i];
}

// Entries flow left to right and wrap onto further centred rows; the bottom margin makes room.
void StackedBarsChart::placeLegend() {
    std::vector<LegendEntry> entries;
    if (model_ && !model_->empty()) {
        for (const StackSeries& s : model_->series)
            if (!s.all_zero) entries.push_back({s.name, s.color, false});
        for (LegendEntry& e : extraLegendEntries()) entries.push_back(std::move(e));
    }
    for (LegendItem& item : legend_items_) {
        item.swatch->hide();
        item.text->hide();
    }
    const qreal avail = size().width() - 4 * chart_margin;
    std::vector<std::vector<std::size_t>> rows(1);
    std::vector<qreal> widths(1, 0), entry_width;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        LegendItem& item = legendItem(i);
        item.text->setText(entries[i].name);
        entry_width.push_back(swatch_size + swatch_gap + item.text->boundingRect().width());
        const qreal needed = (rows.back().empty() ? 0 : legend_gap) + entry_width.back();
        if (!rows.back().empty() && widths.back() + needed > avail) {
            rows.emplace_back();
            widths.push_back(0);
        }
        widths.back() += (rows.back().empty() ? 0 : legend_gap) + entry_width.back();
        rows.back().push_back(i);
    }
    const qreal row_height = entries.empty() ? 0 : legendItem(0).text->boundingRect().height() + 2;
    const qreal height = entries.empty() ? 0 : row_height * static_cast<qreal>(rows.size());
    const int bottom = chart_margin + static_cast<int>(std::ceil(height)) + (entries.empty() ? 0 : legend_top_gap);
    if (margins().bottom() != bottom) {
        QMargins m = margins();
        m.setBottom(bottom);
        setMargins(m);  // re-lays out the plot, which calls placeOverlays() again
    }
    qreal y = size().height() - chart_margin - height;
    for (std::size_t r = 0; r < rows.size(); ++r, y += row_height) {
        qreal x = (size().width() - widths[r]) / 2;
        for (std::size_t i : rows[r]) {
            LegendItem& item = legend_items_[i];
            const qreal text_h = item.text->boundingRect().height();
            const qreal w = entries[i].line ? 3 : swatch_size;
            const qreal h = entries[i].line ? text_h - 2 : swatch_size;
            item.swatch->setRect(x + (swatch_size - w) / 2, y + (text_h - h) / 2, w, h);
            item.swatch->setBrush(entries[i].color);
            item.text->setPos(x + swatch_size + swatch_gap, y);
            item.swatch->show();
            item.text->show();
            x += entry_width[i] + legend_gap;
        }
    }
}

TipChartView::TipChartView(QChart* chart, QWidget* parent) : QChartView(chart, parent) {
    setRenderHint(QPainter::Antialiasing);
    setFrameShape(QFrame::NoFrame);
}

bool TipChartView::viewportEvent(QEvent* event) {
    if (event->type() == QEvent::ToolTip && tip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        const QString text = tip(chart()->mapFromScene(mapToScene(help->pos())));
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QChartView::viewportEvent(event);
}

}  // namespace comet::ui
