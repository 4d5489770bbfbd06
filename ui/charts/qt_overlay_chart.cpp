#include "qt_overlay_chart.hpp"

#include <QApplication>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsPathItem>
#include <QGraphicsSimpleTextItem>
#include <QHelpEvent>
#include <QLegend>
#include <QPainterPath>
#include <QPen>
#include <QTextDocument>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "chart_model.hpp"
#include "chart_views.hpp"

namespace comet::ui {
namespace {

constexpr int chart_margin = 6;
constexpr qreal swatch_size = 11;
constexpr qreal swatch_gap = 5;        // swatch to its text
constexpr qreal legend_gap = 16;       // between legend entries
constexpr int legend_top_gap = 6;      // between the axis title and the legend
constexpr qreal max_axis_share = 0.4;  // Qt Charts' most for the left axes, of the width inside the margins
const QColor& text_dark = chart_text_color;

// WCAG relative luminance.
double luminance(const QColor& c) {
    const auto lin = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF());
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

QColor readable_text_on(const QColor& fill) {
    const double l = luminance(fill);
    const double on_white = 1.05 / (l + 0.05);
    const double on_dark = (l + 0.05) / (luminance(text_dark) + 0.05);
    return on_white >= on_dark ? QColor(Qt::white) : text_dark;
}

QSizeF axis_label_box(const QString& html, const QFont& font) {
    // As Qt Charts measures it (ChartPresenter::textBoundingRect): a text item's rich text with a
    // 0.5 px document margin, each line as tall as the layout rounds it.
    QTextDocument doc;
    doc.setDocumentMargin(0.5);
    doc.setDefaultFont(font);
    doc.setHtml(html);
    return doc.size();
}

qreal max_category_label_width(qreal chart_width) {
    // Qt Charts (CartesianChartLayout) gives the left axes at most 0.4 of the width inside the
    // margins, in whole pixels, and cuts a label whose box (the text and a 0.5 px document margin
    // each side) is wider than that; 1 px more for rounding.
    constexpr qreal box_extra = 2;
    const qreal inside = chart_width - chart_margin - (chart_margin + 4);
    return std::floor(max_axis_share * inside) - box_extra;
}

QStringList category_labels(const std::vector<QString>& top_first, const QFont& font, qreal chart_width, qreal share, bool wrap_only,
                            int max_lines) {
    // Before the first real layout the width means nothing: keep the full text until then.
    const bool laid_out = chart_width >= 200;
    // Never wider than the axis Qt Charts allows: it would cut the line with "...".
    const qreal budget = std::min(std::clamp(share * chart_width, 100.0, 280.0), max_category_label_width(chart_width));
    const QFontMetricsF fm(font);
    // A label too long for one line is wrapped at spaces into up to `max_lines` lines before any of
    // it is elided: in presentation mode and at 1280x720 the text would otherwise end in "…".
    if (wrap_only) max_lines = 1000;
    max_lines = std::max(1, max_lines);
    const auto fit = [&](QString label) -> QString {
        if (fm.horizontalAdvance(label) <= budget) return label;
        if (wrap_only) {  // "(25 GB/s)" stays on one line: no-break spaces inside parentheses
            int depth = 0;
            for (QChar& ch : label) {
                if (ch == QLatin1Char('('))
                    ++depth;
                else if (ch == QLatin1Char(')'))
                    depth = std::max(0, depth - 1);
                else if (ch == QLatin1Char(' ') && depth > 0)
                    ch = QChar(0x00A0);
            }
        }
        QStringList lines;
        QString line;
        const QStringList words = label.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        for (qsizetype w = 0; w < words.size(); ++w) {
            const QString candidate = line.isEmpty() ? words[w] : line + QLatin1Char(' ') + words[w];
            if (line.isEmpty() || fm.horizontalAdvance(candidate) <= budget || int(lines.size()) == max_lines - 1) {
                line = candidate;
                continue;
            }
            lines << line;
            line = words[w];
        }
        lines << line;
        for (QString& l : lines) l = (wrap_only ? l : elide_bar_label(l, fm, budget)).toHtmlEscaped();
        return lines.join(QStringLiteral("<br>"));
    };
    QStringList labels;
    for (auto it = top_first.rbegin(); it != top_first.rend(); ++it) labels << (laid_out ? fit(*it) : *it);
    return unique_labels(labels);
}

OverlayChart::OverlayChart() {
    setTheme(QChart::ChartThemeLight);
    setAnimationOptions(QChart::NoAnimation);
    setBackgroundRoundness(0);
    setBackgroundBrush(Qt::white);
    setMargins(QMargins(chart_margin, chart_margin, chart_margin + 4, chart_margin));
    layout()->setContentsMargins(0, 0, 0, 0);
    setTitleFont(chart_font(11, true));
    setTitleBrush(text_dark);
    legend()->hide();  // replaced by placeLegend(), which wraps

    message_ = new QGraphicsSimpleTextItem(this);
    message_->setFont(chart_font(12));
    message_->setBrush(QColor(0x70, 0x70, 0x70));
    message_->setZValue(overlay_z);
    message_->hide();

    connect(this, &QChart::plotAreaChanged, this, [this] { placeOverlays(); });
    connect(this, &QGraphicsWidget::geometryChanged, this, [this] {
        refreshTitle();
        resized();
        placeOverlays();
    });
}

// The subclass's data is already gone: no more overlay updates while Qt Charts tears down.
OverlayChart::~OverlayChart() { disconnect(this, nullptr, this, nullptr); }

void OverlayChart::setBaseTitle(const QString& title) {
    explicit_title_ = title;
    has_explicit_title_ = true;
    refreshTitle();
}

void OverlayChart::setDefaultTitle(const QString& title) {
    default_title_ = title;
    refreshTitle();
}

// Qt Charts renders the title as HTML and truncates what does not fit its width: a suffix that
// does not fit goes onto a second line, and a title wider than the chart wraps at spaces.
void OverlayChart::refreshTitle() {
    const QString base = has_explicit_title_ ? explicit_title_ : default_title_;
    const QString suffix = titleSuffix();
    const qreal room = size().width() - 4 * chart_margin;
    const QFontMetricsF fm(titleFont());
    const auto lines_of = [&](const QString& text) {
        QStringList lines;
        QString line;
        for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            const QString candidate = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
            if (!line.isEmpty() && room > 0 && fm.horizontalAdvance(candidate) > room) {
                lines << line.toHtmlEscaped();
                line = word;
            } else {
                line = candidate;
            }
        }
        lines << line.toHtmlEscaped();
        return lines;
    };
    QStringList lines;
    const QString one_line = suffix.isEmpty() ? base : base + QStringLiteral(" — ") + suffix;
    if (room <= 0 || fm.horizontalAdvance(one_line) <= room)
        lines << one_line.toHtmlEscaped();
    else {
        lines = lines_of(base);
        if (!suffix.isEmpty()) lines += lines_of(suffix);
    }
    const QString html = lines.size() == 1
                             ? lines.front()
                             : QStringLiteral("<div align=\"center\">") + lines.join(QStringLiteral("<br>")) + QStringLiteral("</div>");
    if (html != title()) setTitle(html);
}

void OverlayChart::setMessage(const QString& message) {
    message_text_ = message;
    message_->setText(message);
    message_->setVisible(!message.isEmpty());
}

namespace {

// Lines of `text` broken at spaces so that none is wider than `width` (a word wider stays whole).
QString wrapped(const QString& text, const QFont& font, qreal width) {
    const QFontMetricsF fm(font);
    QStringList out;
    for (const QString& paragraph : text.split(QLatin1Char('\n'))) {
        QString line;
        for (const QString& word : paragraph.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            const QString candidate = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
            if (!line.isEmpty() && fm.horizontalAdvance(candidate) > width) {
                out << line;
                line = word;
            } else {
                line = candidate;
            }
        }
        out << line;
    }
    return out.join(QLatin1Char('\n'));
}

}  // namespace

void OverlayChart::placeOverlays() {
    const QRectF title_free = rect().adjusted(0, 30, 0, 0);
    if (!message_text_.isEmpty()) message_->setText(wrapped(message_text_, message_->font(), std::max(120.0, rect().width() - 48)));
    message_->setPos(title_free.center() - message_->boundingRect().center());
    placeLegend();
    placeContent();
}

QSizeF OverlayChart::categoryLabelRoom(int rows) const {
    const qreal plot_h = plotArea().height();
    if (rows <= 0 || !(plot_h > 0)) return {1e6, 1e6};  // not laid out yet: redone once it is
    // Qt Charts (CartesianChartLayout, VerticalAxis) gives the left axes at most 0.4 of the width
    // inside the margins, in whole pixels, and a label the axis' height over the categories plus
    // two, less twice its 4 px label padding; that axis reaches from the chart's top to the bottom
    // margin, whole pixels. A label taller than its band would also run into the next row's.
    constexpr qreal qt_label_padding = 4;
    const qreal width = std::floor(max_axis_share * (size().width() - margins().left() - margins().right()));
    const qreal axis_h = std::floor(size().height() - margins().bottom());
    const qreal qt_room = axis_h / static_cast<qreal>(rows + 2) - 2 * qt_label_padding;
    const qreal band = plot_h / static_cast<qreal>(rows);
    return {width, std::min(qt_room, band)};
}

void OverlayChart::needRowHeight(int rows, int lines, const QFont& font) {
    if (rows <= 0) return;
    // Qt Charts gives a label its row less twice the label padding (5 px); a little slack too.
    // A category axis divides its height by the categories plus two and gives a label that less
    // twice its label padding; a little slack too.
    const qreal row = std::max(1, lines) * QFontMetricsF(font).lineSpacing() + 2 * 2 + 6;
    needPlotHeight((rows + 2) * row);
}

void OverlayChart::needPlotHeight(qreal height) {
    if (!on_height_needed) return;
    const qreal plot = plotArea().height();
    if (!(plot > 0)) return;
    // The rest: title, axes, legend. Measured, but never more than a generous estimate from the
    // fonts: while the view resizes, the plot area lags behind the chart's size.
    const auto title_lines = static_cast<qreal>(title().isEmpty() ? 0 : title().count(QStringLiteral("<br>")) + 1);
    const qreal estimate = margins().top() + margins().bottom() + title_lines * QFontMetricsF(titleFont()).lineSpacing() +
                           4 * QFontMetricsF(chart_font(10)).lineSpacing() + 40;
    const qreal need = std::ceil(height + std::min(size().height() - plot, estimate));
    if (std::abs(need - last_height_need_) < 1) return;
    last_height_need_ = need;
    on_height_needed(need);
}

QGraphicsSimpleTextItem* OverlayChart::overlayText(std::vector<QGraphicsSimpleTextItem*>& pool, std::size_t i) {
    while (pool.size() <= i) {
        auto* item = new QGraphicsSimpleTextItem(this);
        item->setFont(chart_font(10));
        item->setBrush(text_dark);
        item->setZValue(overlay_z);
        pool.push_back(item);
    }
    return pool[i];
}

OverlayChart::LegendItem& OverlayChart::legendItem(std::size_t i) {
    while (legend_items_.size() <= i) {
        auto* swatch = new QGraphicsPathItem(this);
        auto* text = new QGraphicsSimpleTextItem(this);
        text->setFont(chart_font(10));
        text->setBrush(text_dark);
        text->setData(overlay_role_key, legend_role);
        for (QGraphicsItem* item : {static_cast<QGraphicsItem*>(swatch), static_cast<QGraphicsItem*>(text)}) item->setZValue(overlay_z);
        legend_items_.push_back({swatch, text});
    }
    return legend_items_[i];
}

// Entries flow left to right and wrap onto further centred rows; the bottom margin makes room.
void OverlayChart::placeLegend() {
    const std::vector<LegendEntry> entries = message_->isVisible() ? std::vector<LegendEntry>{} : legendEntries();
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
        const qreal swatch_w = entries[i].swatch == Swatch::none ? 0 : swatch_size + swatch_gap;
        entry_width.push_back(swatch_w + item.text->boundingRect().width());
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
            const LegendEntry& e = entries[i];
            LegendItem& item = legend_items_[i];
            const qreal text_h = item.text->boundingRect().height();
            const qreal w = e.swatch == Swatch::line ? 3 : swatch_size;
            const qreal h = e.swatch == Swatch::line ? text_h - 2 : swatch_size;
            const QRectF box(x + (swatch_size - w) / 2, y + (text_h - h) / 2, w, h);
            QPainterPath path;
            if (e.swatch == Swatch::dot)
                path.addEllipse(box);
            else
                path.addRect(box);
            item.swatch->setPath(path);
            item.swatch->setBrush(e.swatch == Swatch::hatched ? QBrush(e.color, Qt::BDiagPattern) : QBrush(e.color));
            item.swatch->setPen(e.swatch == Swatch::hatched ? QPen(e.color, 1) : QPen(Qt::NoPen));
            item.swatch->setVisible(e.swatch != Swatch::none);
            item.text->setPos(e.swatch == Swatch::none ? x : x + swatch_size + swatch_gap, y);
            item.text->show();
            x += entry_width[i] + legend_gap;
        }
    }
}

namespace {
qreal g_chart_zoom = 1.0;  // GUI thread only
}  // namespace

void set_chart_zoom(double zoom) {
    g_chart_zoom = zoom > 0 ? zoom : 1.0;
    for (QWidget* w : QApplication::allWidgets())
        if (auto* view = dynamic_cast<TipChartView*>(w)) view->applyZoom(g_chart_zoom);
}

double chart_zoom() noexcept { return g_chart_zoom; }

TipChartView::TipChartView(QChart* chart, QWidget* parent) : QChartView(chart, parent), zoom_(g_chart_zoom) {
    setRenderHint(QPainter::Antialiasing);
    setFrameShape(QFrame::NoFrame);
}

void TipChartView::setMinimumChartHeight(qreal height) {
    min_chart_height_ = height;
    const qreal chart_min = chart() ? chart()->minimumHeight() : 0.0;
    const int px = static_cast<int>(std::ceil(std::max({min_chart_height_, chart_min, floor_chart_height_}) * zoom_));
    if (px != minimumHeight()) setMinimumHeight(px);
}

void TipChartView::setChartHeightFloor(qreal height) {
    floor_chart_height_ = height;
    setMinimumChartHeight(min_chart_height_);
}

void set_chart_height_floor(QWidget* chart, double height) {
    if (auto* view = dynamic_cast<TipChartView*>(chart)) view->setChartHeightFloor(height);
}

void TipChartView::applyZoom(qreal zoom) {
    zoom_ = zoom;
    setMinimumChartHeight(min_chart_height_);
    resetTransform();
    const QSizeF size = QSizeF(viewport()->size()) / zoom_;
    if (zoom_ != 1.0) scale(zoom_, zoom_);
    chart()->resize(size);
    setSceneRect(QRectF(QPointF(0, 0), size));
}

void TipChartView::resizeEvent(QResizeEvent* event) {
    QChartView::resizeEvent(event);  // sizes the chart to the viewport, minimum = the chart's
    if (zoom_ != 1.0)
        applyZoom(zoom_);
    else
        setMinimumChartHeight(min_chart_height_);  // what the chart said it needs wins
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
