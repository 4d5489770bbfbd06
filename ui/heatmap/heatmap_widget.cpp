#include "heatmap_widget.hpp"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QLinearGradient>
#include <QMouseEvent>
#include <QPainter>
#include <QRegularExpression>
#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "export/chart_export.hpp"
#include "heatmap/nice_ticks.hpp"

namespace comet::ui {
namespace {

// Infeasible cells: neutral greys (no hue), so no palette colour is ever mistaken for them.
const QColor infeasible_fill(208, 208, 208);
const QColor infeasible_hatch(140, 140, 140);
const QColor marker_outline(25, 25, 25);
constexpr int gradient_stops = 32;

QFont title_font(const QFont& base) {
    QFont f = base;
    f.setBold(true);
    f.setPointSizeF(base.pointSizeF() > 0 ? base.pointSizeF() * 1.2 : 11.0);
    return f;
}

double marker_radius(const HeatmapGeometry& g) {
    const double cw = g.plot().width() / std::max(1, g.nx());
    const double ch = g.plot().height() / std::max(1, g.ny());
    return std::clamp(0.4 * std::min(cw, ch), 5.0, 12.0);
}

void draw_ring(QPainter& p, QPointF c, double r) {
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(marker_outline, 4.5));
    p.drawEllipse(c, r, r);
    p.setPen(QPen(Qt::white, 2.5));
    p.drawEllipse(c, r, r);
}

void draw_star(QPainter& p, QPointF c, double r) {
    QPolygonF star;
    for (int i = 0; i < 10; ++i) {
        const double a = -std::numbers::pi / 2 + i * std::numbers::pi / 5;
        const double radius = i % 2 == 0 ? 1.3 * r : 0.55 * r;
        star << c + QPointF(radius * std::cos(a), radius * std::sin(a));
    }
    p.setPen(QPen(marker_outline, 1.5, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    p.setBrush(Qt::white);
    p.drawPolygon(star);
}

void fill_infeasible(QPainter& p, const QRectF& r) {
    p.fillRect(r, infeasible_fill);
    p.fillRect(r, QBrush(infeasible_hatch, Qt::BDiagPattern));
}

// Hatch over a coloured cell that does not fit (HBM use): visible on dark and bright cells alike.
QColor hatch_over(const QColor& c) {
    const double luma = 0.299 * c.redF() + 0.587 * c.greenF() + 0.114 * c.blueF();
    return luma < 0.45 ? QColor(255, 255, 255, 150) : QColor(0, 0, 0, 120);
}

// One-pixel outline just outside (grow > 0) or on the border pixels (grow == 0) of an integer rect.
void outline(QPainter& p, const QRectF& cell, int grow, const QColor& c) {
    const QRect r = cell.toRect().adjusted(-grow, -grow, grow - 1, grow - 1);
    p.setPen(QPen(c, 1));
    p.setBrush(Qt::NoBrush);
    p.drawRect(r);
}

bool has_infeasible(const HeatmapData& d) {
    return std::any_of(d.cells.begin(), d.cells.end(), [](const HeatmapCell& c) { return !c.feasible || !std::isfinite(c.value); });
}

std::vector<double> cell_values(const HeatmapData& d) {
    std::vector<double> v;
    v.reserve(d.cells.size());
    for (const HeatmapCell& c : d.cells) v.push_back(c.value);
    return v;
}

// Lines of at most `width`, broken at spaces, at most max_lines (the last one elided if need be).
QStringList wrap_lines(const QString& text, const QFontMetricsF& fm, double width, int max_lines) {
    QStringList lines;
    QString line;
    for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QString candidate = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
        if (!line.isEmpty() && fm.horizontalAdvance(candidate) > width && lines.size() + 1 < max_lines) {
            lines << line;
            line = word;
        } else {
            line = candidate;
        }
    }
    lines << line;
    for (QString& l : lines) l = fm.elidedText(l, Qt::ElideRight, width);
    return lines;
}

// A continuous axis whose cells are not already at round values is labelled at round values.
AxisScale scale_of(const std::vector<double>& values, bool continuous, bool log) {
    if (!continuous || std::all_of(values.begin(), values.end(), [](double v) { return is_round(v); })) return {};
    return {values, log};
}

QString tick_text(const AxisTick& t, const std::vector<QString>& cell_labels) {
    return std::isfinite(t.value) ? format_axis_value(t.value) : cell_labels[static_cast<std::size_t>(t.index)];
}

std::vector<QString> tick_labels(const std::vector<double>& values) {
    std::vector<QString> out;
    out.reserve(values.size());
    for (double v : values) out.push_back(format_axis_value(v));
    return out;
}

}  // namespace

void trim_common_zeros(std::vector<QString>& labels) {
    static const QRegularExpression number(QStringLiteral("^(-?\\d+)\\.(\\d+)(.*)$"));
    qsizetype common = std::numeric_limits<qsizetype>::max();
    for (const QString& s : labels) {
        const auto m = number.match(s);
        if (!m.hasMatch()) continue;  // "120 s": nothing to trim
        const QString decimals = m.captured(2);
        qsizetype zeros = 0;
        while (zeros < decimals.size() && decimals[decimals.size() - 1 - zeros] == QLatin1Char('0')) ++zeros;
        common = std::min(common, zeros);
    }
    if (common == 0 || common == std::numeric_limits<qsizetype>::max()) return;
    for (QString& s : labels) {
        const auto m = number.match(s);
        if (!m.hasMatch()) continue;
        const QString decimals = m.captured(2).chopped(common);
        QString out = m.captured(1);
        if (!decimals.isEmpty()) out += QLatin1Char('.') + decimals;
        s = out + m.captured(3);
    }
}

HeatmapWidget::HeatmapWidget(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    updateAccessibleText();
}

void HeatmapWidget::setData(HeatmapData data) {
    data_ = std::move(data);
    data_.nx = std::max(0, data_.nx);
    data_.ny = std::max(0, data_.ny);
    data_.cells.resize(static_cast<std::size_t>(data_.nx) * static_cast<std::size_t>(data_.ny));
    data_.x_values.resize(static_cast<std::size_t>(data_.nx), std::nan(""));
    data_.y_values.resize(static_cast<std::size_t>(data_.ny), std::nan(""));
    const std::vector<double> values = cell_values(data_);
    scale_ = data_.categories.empty() ? ColorScale(values, metric_info(data_.metric).higher_is_better)
                                      : ColorScale::categorical(static_cast<int>(data_.categories.size()));
    x_labels_ = tick_labels(data_.x_values);
    y_labels_ = tick_labels(data_.y_values);
    auto inside = [this](const std::optional<CellIndex>& c) {
        return c && c->ix >= 0 && c->ix < data_.nx && c->iy >= 0 && c->iy < data_.ny;
    };
    if (!inside(selected_)) selected_.reset();
    if (!inside(hovered_)) hovered_.reset();
    if (!inside(data_.current)) data_.current.reset();
    if (!inside(data_.best)) data_.best.reset();
    explained_.clear();
    relayout();
    updateAccessibleText();
    update();
}

void HeatmapWidget::setBusy(bool busy) {
    if (busy_ == busy) return;
    busy_ = busy;
    update();
}

void HeatmapWidget::setSelectedCell(std::optional<CellIndex> cell) {
    if (cell && (cell->ix < 0 || cell->ix >= data_.nx || cell->iy < 0 || cell->iy >= data_.ny)) cell.reset();
    if (selected_ == cell) return;
    selected_ = cell;
    updateAccessibleText();
    update();
}

QSize HeatmapWidget::sizeHint() const {
    const int th = fontMetrics().height();
    return {48 * th, 32 * th};
}

QSize HeatmapWidget::minimumSizeHint() const {
    // Capped: with presentation-size text the page must still fit a 1920x1080 screen. 13 lines:
    // title, the x axis with its title and at least six lines of cells; on a 1280x720 slide
    // (22 px lines) 286 px, 40 % of the page, which leaves the charts below theirs.
    const int th = fontMetrics().height();
    return {std::min(30 * th, 640), std::min(13 * th, 340)};
}

QString HeatmapWidget::titleText() const {
    const QString label = heatmap_value_label(data_);
    return data_.title_suffix.isEmpty() ? label : label + QStringLiteral(" — ") + data_.title_suffix;
}

double HeatmapWidget::legendWidth() const {
    const QFontMetricsF fm(font());
    const double swatch = fm.height() + 4;
    double w = 0;
    auto item = [&](const QString& text) { w += swatch + fm.horizontalAdvance(text) + fm.height(); };
    if (data_.best) item(QStringLiteral("best"));
    if (data_.current) item(QStringLiteral("current"));
    if (has_infeasible(data_)) item(QStringLiteral("infeasible"));
    return w > 0 ? w - fm.height() : 0.0;
}

HeatmapGeometry HeatmapWidget::layoutFor(QSizeF size) const {
    const QFontMetricsF fm(font());
    HeatmapLayoutInput in;
    in.size = size;
    in.nx = data_.nx;
    in.ny = data_.ny;
    in.text_height = fm.height();
    in.title_height = QFontMetricsF(title_font(font())).height();
    for (const QString& s : x_labels_) in.x_label_widths.push_back(fm.horizontalAdvance(s));
    for (const QString& s : y_labels_) in.y_label_width = std::max(in.y_label_width, fm.horizontalAdvance(s));
    // The tick set depends on the bar's height, which depends on this width: reserve the widest.
    for (int n = 2; n <= 12 && !scale_.empty(); ++n)
        for (double v : scale_.ticks(n))
            in.bar_label_width = std::max(in.bar_label_width, fm.horizontalAdvance(format_heatmap_value(data_, v)));
    in.legend_width = legendWidth();
    in.x_title = !data_.x_label.isEmpty();
    in.y_title = !data_.y_label.isEmpty();
    in.colorbar = !scale_.empty();
    in.x_scale = scale_of(data_.x_values, data_.x_continuous, data_.x_log);
    in.y_scale = scale_of(data_.y_values, data_.y_continuous, data_.y_log);
    in.value_label_width = [fm](double v) { return fm.horizontalAdvance(format_axis_value(v)); };
    HeatmapGeometry g(in);
    // A y title longer than the plot is tall goes onto two or three lines side by side, else
    // (a short plot) onto one line above the plot.
    const auto elided = [](const QStringList& lines) {
        return std::any_of(lines.begin(), lines.end(), [](const QString& l) { return l.contains(QChar(0x2026)); });
    };
    for (int lines = 2; lines <= 4 && in.y_title; ++lines) {
        if (!elided(wrap_lines(data_.y_label, fm, g.y_title_rect().width(), lines - 1))) break;
        if (lines == 4) {
            in.y_title_lines = 1;
            in.y_title_above = true;
        } else {
            in.y_title_lines = lines;
        }
        g = HeatmapGeometry(in);
    }
    return g;
}

void HeatmapWidget::relayout() { geometry_ = layoutFor(size()); }

void HeatmapWidget::updateAccessibleText() {
    setAccessibleName(QStringLiteral("Heatmap: ") + titleText());
    QString text = data_.nx > 0 ? summarize(data_) : QStringLiteral("No sweep results yet.");
    if (selected_) {
        QStringList lines = data_.at(selected_->ix, selected_->iy).tooltip.split(QLatin1Char('\n'));
        for (QString& line : lines) line = line.trimmed();
        text += QStringLiteral(" Selected: ") + lines.join(QStringLiteral("; "));
    }
    setAccessibleDescription(text);
}

// ---- events ----

bool HeatmapWidget::event(QEvent* e) {
    if (e->type() != QEvent::ToolTip) return QWidget::event(e);
    auto* help = static_cast<QHelpEvent*>(e);
    const auto cell = geometry_.cell_at(help->pos());
    if (!cell) {
        QToolTip::hideText();
        e->ignore();
        return true;
    }
    QToolTip::showText(help->globalPos(), tooltipText(*cell), this, geometry_.cell_rect(*cell).toAlignedRect());
    return true;
}

void HeatmapWidget::setExplainer(std::function<QString(CellIndex)> explain) {
    explainer_ = std::move(explain);
    explained_.clear();
}

QString HeatmapWidget::explanation(CellIndex cell) const {
    if (!explainer_) return {};
    const auto key = std::pair{cell.ix, cell.iy};
    auto it = explained_.find(key);
    if (it == explained_.end()) it = explained_.emplace(key, explainer_(cell)).first;
    return it->second;
}

QString HeatmapWidget::tooltipText(CellIndex cell) const {
    if (cell.ix < 0 || cell.iy < 0 || cell.ix >= data_.nx || cell.iy >= data_.ny) return {};
    const HeatmapCell& c = data_.at(cell.ix, cell.iy);
    QString tip = c.tooltip.isEmpty() ? c.reason : c.tooltip;
    if (c.feasible && std::isfinite(c.value)) return tip;
    const QString why = explanation(cell);
    if (why.isEmpty()) return tip;
    // The binding limit replaces the reason (for a searched cell: the most common rejection).
    const QString line = QStringLiteral("Infeasible: ") + c.reason;
    if (!c.reason.isEmpty() && tip.contains(line)) return tip.replace(line, QStringLiteral("Infeasible: ") + why);
    return tip + QStringLiteral("\nInfeasible: ") + why;
}

void HeatmapWidget::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    relayout();
}

void HeatmapWidget::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::FontChange || e->type() == QEvent::PaletteChange) {
        relayout();
        update();
    }
}

void HeatmapWidget::setHovered(std::optional<CellIndex> cell) {
    if (hovered_ == cell) return;
    hovered_ = cell;
    update();
    if (cell) Q_EMIT cellHovered(*cell);
}

void HeatmapWidget::mouseMoveEvent(QMouseEvent* e) { setHovered(geometry_.cell_at(e->position())); }

void HeatmapWidget::leaveEvent(QEvent* e) {
    QWidget::leaveEvent(e);
    setHovered(std::nullopt);
}

void HeatmapWidget::mousePressEvent(QMouseEvent* e) {
    const auto cell = geometry_.cell_at(e->position());
    if (!cell) return QWidget::mousePressEvent(e);
    const bool pin = e->button() == Qt::RightButton || (e->button() == Qt::LeftButton && e->modifiers().testFlag(Qt::ControlModifier));
    if (pin) {
        Q_EMIT cellPinned(*cell);
    } else if (e->button() == Qt::LeftButton) {
        setSelectedCell(cell);
        Q_EMIT cellClicked(*cell);
    }
}

void HeatmapWidget::keyPressEvent(QKeyEvent* e) {
    switch (e->key()) {
        case Qt::Key_Left:
            return moveSelection(-1, 0);
        case Qt::Key_Right:
            return moveSelection(1, 0);
        case Qt::Key_Up:
            return moveSelection(0, 1);  // row 0 is at the bottom
        case Qt::Key_Down:
            return moveSelection(0, -1);
        case Qt::Key_Return:
        case Qt::Key_Enter:
            if (selected_) {
                Q_EMIT cellPinned(*selected_);
                return;
            }
            break;
        default:
            break;
    }
    QWidget::keyPressEvent(e);
}

void HeatmapWidget::moveSelection(int dx, int dy) {
    if (data_.nx == 0 || data_.ny == 0) return;
    const std::optional<CellIndex> from = selected_ ? selected_ : data_.current ? data_.current : data_.best;
    CellIndex next{0, 0};
    if (from) next = {std::clamp(from->ix + dx, 0, data_.nx - 1), std::clamp(from->iy + dy, 0, data_.ny - 1)};
    if (selected_ == next) return;
    setSelectedCell(next);
    Q_EMIT cellClicked(next);
}

// ---- painting ----

void HeatmapWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    paint(p, size(), {});
}

void HeatmapWidget::render(QPainter& p, QSizeF size) const { paint(p, size, {false}); }

QSize HeatmapWidget::preferredExportSize() const {
    const QSize least = minimumSizeHint();
    return size().width() >= least.width() && size().height() >= least.height() ? size() : sizeHint();
}

QImage HeatmapWidget::render_image(QSize size, qreal dpr) const { return render_chart_image(*this, size, dpr * export_px_per_inch); }

bool HeatmapWidget::render_svg(const QString& path) const {
    ExportOptions options;
    options.title = accessibleName();
    options.description = data_.nx > 0 ? summarize(data_) : QString();
    return export_chart(*this, path, ExportFormat::svg, options).isEmpty();
}

void HeatmapWidget::paint(QPainter& p, QSizeF size, PaintOptions opt) const {
    const HeatmapGeometry g = size == QSizeF(this->size()) ? geometry_ : layoutFor(size);
    p.fillRect(QRectF(QPointF(), size), palette().color(QPalette::Base));
    p.setFont(font());
    paintTitle(p, g);
    if (data_.nx == 0 || data_.ny == 0) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(QRectF(QPointF(), size), Qt::AlignCenter, QStringLiteral("No sweep results yet"));
        return;
    }
    paintLegend(p, g);
    paintCells(p, g);
    paintAxes(p, g);
    paintColorBar(p, g);
    paintMarkers(p, g);
    if (!data_.note.isEmpty()) paintNote(p, g);
    if (opt.interactive) paintInteraction(p, g);
    if (busy_) paintBusy(p, g);
}

// Why the cells have no value (no token budget, no price), in a box over the plot, wrapped.
void HeatmapWidget::paintNote(QPainter& p, const HeatmapGeometry& g) const {
    const QFontMetricsF fm(font());
    const double width =
        std::max(fm.height() * 4, std::min(g.plot().width() - fm.height(), fm.horizontalAdvance(data_.note) + fm.height()));
    const int flags = static_cast<int>(Qt::TextWordWrap) | static_cast<int>(Qt::AlignCenter);
    const QRectF text = fm.boundingRect(QRectF(0, 0, width - fm.height(), 1e6), flags, data_.note);
    const QSizeF box(width, text.height() + fm.height());
    const QRectF r(g.plot().center() - QPointF(box.width() / 2, box.height() / 2), box);
    p.save();
    p.setFont(font());
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    p.setBrush(palette().color(QPalette::Base));
    p.drawRoundedRect(r, 4, 4);
    p.setPen(palette().color(QPalette::Text));
    p.drawText(r.adjusted(fm.height() / 2, fm.height() / 2, -fm.height() / 2, -fm.height() / 2), flags, data_.note);
    p.restore();
}

QString HeatmapWidget::shownTitle(const HeatmapGeometry& g) const {
    return QFontMetricsF(title_font(font())).elidedText(titleText(), Qt::ElideRight, g.title_rect().width());
}

// "lower is better" after the title when it fits whole, else nothing.
QString HeatmapWidget::shownHint(const HeatmapGeometry& g) const {
    const QFontMetricsF bold(title_font(font()));
    const QFontMetricsF fm(font());
    const double room = g.title_rect().width() - bold.horizontalAdvance(shownTitle(g)) - bold.averageCharWidth();
    // Categories are neither better nor worse: the star marks the fastest cell.
    const QString text = !data_.categories.empty()                    ? QStringLiteral("star: fastest")
                         : metric_info(data_.metric).higher_is_better ? QStringLiteral("higher is better")
                                                                      : QStringLiteral("lower is better");
    return fm.horizontalAdvance(text) <= room ? text : QString();
}

QString HeatmapWidget::shownXTitle(const HeatmapGeometry& g) const {
    return QFontMetricsF(font()).elidedText(data_.x_label, Qt::ElideRight, g.x_title_rect().width());
}

QStringList HeatmapWidget::shownYTitle(const HeatmapGeometry& g) const {
    const QFontMetricsF fm(font());
    if (g.y_title_above()) return {fm.elidedText(data_.y_label, Qt::ElideRight, g.y_title_rect().width())};
    const int lines = std::max(1, static_cast<int>(std::lround(g.y_title_rect().height() / fm.height())));
    return wrap_lines(data_.y_label, fm, g.y_title_rect().width(), lines);
}

QStringList HeatmapWidget::shownTexts() const {
    QStringList out{shownTitle(geometry_)};
    if (data_.nx == 0 || data_.ny == 0) return out;
    if (const QString hint = shownHint(geometry_); !hint.isEmpty()) out << hint;
    if (!geometry_.x_title_rect().isEmpty()) out << shownXTitle(geometry_);
    if (!geometry_.y_title_rect().isEmpty()) out << shownYTitle(geometry_);
    for (const AxisTick& t : geometry_.x_ticks()) out << tick_text(t, x_labels_);
    for (const AxisTick& t : geometry_.y_ticks()) out << tick_text(t, y_labels_);
    return out;
}

void HeatmapWidget::paintTitle(QPainter& p, const HeatmapGeometry& g) const {
    const QFont bold = title_font(font());
    const QFontMetricsF fm(bold);
    const QString title = shownTitle(g);
    p.setFont(bold);
    p.setPen(palette().color(QPalette::Text));
    p.drawText(g.title_rect(), Qt::AlignLeft | Qt::AlignVCenter | Qt::TextDontClip, title);
    QRectF hint = g.title_rect().adjusted(fm.horizontalAdvance(title) + fm.averageCharWidth(), 0, 0, 0);
    p.setFont(font());
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(hint, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextDontClip, shownHint(g));
}

void HeatmapWidget::paintLegend(QPainter& p, const HeatmapGeometry& g) const {
    const QFontMetricsF fm(font());
    const double s = fm.height();
    double x = g.legend_rect().left();
    const double cy = g.legend_rect().center().y();
    p.setRenderHint(QPainter::Antialiasing, true);
    auto label = [&](const QString& text) {
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRectF(x + s + 4, cy - s / 2, fm.horizontalAdvance(text) + 1, s), Qt::AlignLeft | Qt::AlignVCenter, text);
        x += s + 4 + fm.horizontalAdvance(text) + s;
    };
    const QPointF c(0, cy);
    if (data_.best) {
        draw_star(p, c + QPointF(x + s / 2, 0), 0.36 * s);
        label(QStringLiteral("best"));
    }
    if (data_.current) {
        draw_ring(p, c + QPointF(x + s / 2, 0), 0.3 * s);
        label(QStringLiteral("current"));
    }
    if (has_infeasible(data_)) {
        fill_infeasible(p, QRectF(x + 1, cy - s / 2 + 1, s - 2, s - 2));
        label(QStringLiteral("infeasible"));
    }
}

void HeatmapWidget::paintCells(QPainter& p, const HeatmapGeometry& g) const {
    p.setRenderHint(QPainter::Antialiasing, false);
    for (int iy = 0; iy < data_.ny; ++iy) {
        for (int ix = 0; ix < data_.nx; ++ix) {
            const QRectF r = g.cell_rect({ix, iy});
            const HeatmapCell& c = data_.at(ix, iy);
            if (!std::isfinite(c.value)) {
                fill_infeasible(p, r);
                continue;
            }
            const QColor colour = scale_.color(c.value);
            p.fillRect(r, colour);
            if (!c.feasible) p.fillRect(r, QBrush(hatch_over(colour), Qt::BDiagPattern));
        }
    }
    const QRectF plot = g.plot();
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    p.setBrush(Qt::NoBrush);
    p.drawRect(plot.toRect().adjusted(-1, -1, 0, 0));
}

void HeatmapWidget::paintAxes(QPainter& p, const HeatmapGeometry& g) const {
    const QRectF plot = g.plot();
    const QColor text = palette().color(QPalette::Text);
    const QColor tick = palette().color(QPalette::Mid);
    const auto flags = Qt::TextDontClip | Qt::AlignVCenter;
    for (const AxisTick& t : g.x_ticks()) {
        p.setPen(tick);
        p.drawLine(QPointF(t.pos, plot.bottom()), QPointF(t.pos, plot.bottom() + g.tick_length()));
        p.setPen(text);
        p.drawText(t.label, flags | Qt::AlignHCenter, tick_text(t, x_labels_));
    }
    for (const AxisTick& t : g.y_ticks()) {
        p.setPen(tick);
        p.drawLine(QPointF(plot.left() - g.tick_length(), t.pos), QPointF(plot.left() - 1, t.pos));
        p.setPen(text);
        p.drawText(t.label, flags | Qt::AlignRight, tick_text(t, y_labels_));
    }
    p.setPen(text);
    if (!g.x_title_rect().isEmpty()) p.drawText(g.x_title_rect(), Qt::AlignCenter, shownXTitle(g));
    if (!g.y_title_rect().isEmpty() && g.y_title_above()) {
        p.drawText(g.y_title_rect(), Qt::AlignLeft | Qt::AlignVCenter, shownYTitle(g).value(0));
    } else if (!g.y_title_rect().isEmpty()) {
        const QRectF r = g.y_title_rect();
        p.save();
        p.translate(r.center());
        p.rotate(-90);
        p.drawText(QRectF(-r.width() / 2, -r.height() / 2, r.width(), r.height()), Qt::AlignCenter, shownYTitle(g).join(QLatin1Char('\n')));
        p.restore();
    }
}

std::vector<double> HeatmapWidget::barTicks(const HeatmapGeometry& g) const {
    // A short bar over a narrow range can get a single round value: ask for denser ticks then
    // (labels that would collide are dropped when painting).
    const int n = g.colorbar_max_ticks();
    std::vector<double> ticks = scale_.ticks(n);
    for (int more = n + 1; ticks.size() < 2 && more <= 2 * n + 2; ++more) ticks = scale_.ticks(more);
    return ticks;
}

void HeatmapWidget::paintColorBar(QPainter& p, const HeatmapGeometry& g) const {
    const QRectF bar = g.colorbar();
    if (bar.isEmpty() || scale_.empty()) return;
    if (const int n = scale_.categories(); n > 0) {  // one block per category, the first at the bottom
        for (int i = 0; i < n; ++i) {
            const double top = bar.bottom() - bar.height() * (i + 1) / n;
            p.fillRect(QRectF(bar.left(), top, bar.width(), bar.height() / n), ColorScale::category_color(i));
        }
    } else if (scale_.max() > scale_.min()) {
        QLinearGradient grad(bar.bottomLeft(), bar.topLeft());
        for (int k = 0; k <= gradient_stops; ++k) grad.setColorAt(double(k) / gradient_stops, scale_.color_at(double(k) / gradient_stops));
        p.fillRect(bar, grad);
    } else {
        p.fillRect(bar, scale_.color(scale_.min()));
    }
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    p.setBrush(Qt::NoBrush);
    p.drawRect(bar.toRect().adjusted(-1, -1, 0, 0));

    const QFontMetricsF fm(font());
    std::vector<double> values;
    std::vector<QString> labels;
    for (double v : barTicks(g)) {
        const QString s = format_heatmap_value(data_, v);
        if (!labels.empty() && labels.back() == s) continue;  // rounding made two ticks read the same
        values.push_back(v);
        labels.push_back(s);
    }
    trim_common_zeros(labels);
    std::vector<QRectF> rects;
    std::vector<double> ys;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const double t = scale_.normalized(values[i]);
        rects.push_back(g.colorbar_label_rect(t, fm.horizontalAdvance(labels[i]) + 1));
        ys.push_back(g.colorbar_y(t));
    }
    for (std::size_t i : non_overlapping(rects)) {
        p.setPen(palette().color(QPalette::Text));
        p.drawLine(QPointF(bar.right(), ys[i]), QPointF(bar.right() + g.tick_length(), ys[i]));
        p.drawText(rects[i], Qt::AlignLeft | Qt::AlignVCenter | Qt::TextDontClip, labels[i]);
    }
}

void HeatmapWidget::paintMarkers(QPainter& p, const HeatmapGeometry& g) const {
    p.setRenderHint(QPainter::Antialiasing, true);
    const double r = marker_radius(g);
    const bool same = data_.best && data_.current && *data_.best == *data_.current;
    if (data_.current) draw_ring(p, g.cell_rect(*data_.current).center(), same ? 1.6 * r : r);
    if (data_.best) draw_star(p, g.cell_rect(*data_.best).center(), r);
    // Pinned cells: a numbered white tag with a dark border, in the order of the breakdown's bars.
    QFont f = p.font();
    f.setBold(true);
    f.setPixelSize(std::max(8, static_cast<int>(1.5 * r)));
    p.setFont(f);
    for (std::size_t i = 0; i < pinned_.size(); ++i) {
        const CellIndex c = pinned_[i];
        if (c.ix < 0 || c.iy < 0 || c.ix >= g.nx() || c.iy >= g.ny()) continue;
        const QPointF at = g.cell_rect(c).center();
        const QRectF tag(at.x() - 1.1 * r, at.y() - 1.1 * r, 2.2 * r, 2.2 * r);
        p.setPen(QPen(QColor(0x20, 0x20, 0x20), 1.5));
        p.setBrush(Qt::white);
        p.drawRoundedRect(tag, 2, 2);
        p.drawText(tag, Qt::AlignCenter, QString::number(i + 1));
    }
}

void HeatmapWidget::setPinnedCells(const std::vector<CellIndex>& cells) {
    if (cells == pinned_) return;
    pinned_ = cells;
    update();
}

void HeatmapWidget::paintInteraction(QPainter& p, const HeatmapGeometry& g) const {
    p.setRenderHint(QPainter::Antialiasing, false);
    const QColor dark = palette().color(QPalette::Text);
    if (hovered_) {
        const QRectF r = g.cell_rect(*hovered_);
        outline(p, r, 1, dark);
        if (r.width() >= 4 && r.height() >= 4) outline(p, r, 0, Qt::white);
    }
    if (selected_ && hasFocus()) {
        const QRectF r = g.cell_rect(*selected_);
        outline(p, r, 1, dark);
        outline(p, r, 2, dark);
        if (r.width() >= 4 && r.height() >= 4) outline(p, r, 0, Qt::white);
    }
}

void HeatmapWidget::paintBusy(QPainter& p, const HeatmapGeometry& g) const {
    QColor veil = palette().color(QPalette::Base);
    veil.setAlpha(150);
    p.fillRect(g.plot().united(g.colorbar()).adjusted(-1, -1, 1, 1), veil);
    const QString text = QStringLiteral("updating…");
    const QFontMetricsF fm(font());
    const QSizeF box(fm.horizontalAdvance(text) + fm.height(), fm.height() * 1.5);
    const QRectF r(g.plot().center() - QPointF(box.width() / 2, box.height() / 2), box);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    p.setBrush(palette().color(QPalette::Base));
    p.drawRoundedRect(r, 4, 4);
    p.setPen(palette().color(QPalette::Text));
    p.drawText(r, Qt::AlignCenter, text);
}

}  // namespace comet::ui
