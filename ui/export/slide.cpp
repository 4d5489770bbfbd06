#include "export/slide.hpp"

#include <QFont>
#include <QFontMetricsF>
#include <QPainter>
#include <QRegion>
#include <algorithm>
#include <cmath>

namespace comet::ui {
namespace {

const int wrap = static_cast<int>(Qt::TextWordWrap) | static_cast<int>(Qt::AlignLeft | Qt::AlignTop);

QFont pixel_font(double px, bool bold = false) {
    QFont f;
    f.setPixelSize(std::max(1, static_cast<int>(std::lround(px))));
    f.setBold(bold);
    return f;
}

double footer_px(QSizeF page) { return std::clamp(page.height() / 55.0, 11.0, 20.0); }
double footer_margin(QSizeF page) { return footer_px(page) * 0.6; }

// Height of `text` wrapped at `width` in `font`.
double wrapped_height(const QFont& font, const QString& text, double width) {
    if (text.isEmpty()) return 0;
    return QFontMetricsF(font).boundingRect(QRectF(0, 0, width, 1e6), wrap, text).height();
}

// Draws `text` wrapped into the top of `area`; returns the height used.
double draw_wrapped(QPainter& p, const QRectF& area, const QFont& font, const QString& text, const QColor& color) {
    if (text.isEmpty()) return 0;
    p.setFont(font);
    p.setPen(color);
    const double h = wrapped_height(font, text, area.width());
    p.drawText(QRectF(area.left(), area.top(), area.width(), h + 1), wrap, text);
    return h;
}

bool numeric(const QString& t) {
    if (t.isEmpty()) return false;
    const QChar c = t.front();
    return c.isDigit() || c == QLatin1Char('$') || c == QChar(0x2212) || c == QLatin1Char('-') || c == QLatin1Char('+');
}

// The span starting at (row, col), or nullptr; covered() says whether a cell is inside one.
const SlideTable::Span* span_at(const SlideTable& t, int row, int col) {
    for (const SlideTable::Span& s : t.spans)
        if (s.row == row && s.first == col && s.count > 1) return &s;
    return nullptr;
}
bool covered(const SlideTable& t, int row, int col) {
    for (const SlideTable::Span& s : t.spans)
        if (s.row == row && col > s.first && col < s.first + s.count) return true;
    return false;
}

// The table's layout at one font size: column widths and row heights; `fits` when it does.
struct TableLayout {
    QFont font, bold;
    std::vector<double> widths;
    std::vector<double> heights;  // header first
    double pad = 0;
    bool fits = false;
    [[nodiscard]] double width(int first, int count) const {
        double w = 0;
        for (int c = first; c < first + count && c < static_cast<int>(widths.size()); ++c) w += widths[static_cast<std::size_t>(c)];
        return w;
    }
};

QString cell_text(const QStringList& row, int c) { return c < row.size() ? row[c] : QString(); }

TableLayout layout_table(const SlideTable& t, QSizeF area, double px, bool allow_wrap) {
    TableLayout l;
    l.font = pixel_font(px);
    l.bold = pixel_font(px, true);
    l.pad = px * 0.45;
    const QFontMetricsF fb(l.bold);
    const int cols = static_cast<int>(t.headers.size());
    const auto font_of = [&](int r) -> const QFont& { return r == t.highlighted_row ? l.bold : l.font; };
    l.widths.assign(static_cast<std::size_t>(cols), 0.0);
    for (int c = 0; c < cols; ++c) {
        double w = fb.horizontalAdvance(t.headers[c]);
        for (int r = 0; r < static_cast<int>(t.rows.size()); ++r) {
            if (span_at(t, r, c) || covered(t, r, c)) continue;  // a span wraps into its columns
            w = std::max(w, QFontMetricsF(font_of(r)).horizontalAdvance(cell_text(t.rows[static_cast<std::size_t>(r)], c)));
        }
        l.widths[static_cast<std::size_t>(c)] = w + 2 * l.pad + 1;
    }
    double total = l.width(0, cols);
    if (total > area.width() && allow_wrap && cols > 0) {
        // Wrap the widest column into what the others leave (not below a fifth of the table).
        const auto widest = static_cast<std::size_t>(std::max_element(l.widths.begin(), l.widths.end()) - l.widths.begin());
        const double others = total - l.widths[widest];
        l.widths[widest] = std::max(area.width() - others, area.width() / 5);
        total = l.width(0, cols);
    }
    const auto row_height = [&](const QStringList& texts, const QFont& f, int r) {
        double h = QFontMetricsF(f).height();
        for (int c = 0; c < cols; ++c) {
            if (r >= 0 && covered(t, r, c)) continue;
            const SlideTable::Span* sp = r >= 0 ? span_at(t, r, c) : nullptr;
            const double w = sp ? l.width(c, sp->count) : l.widths[static_cast<std::size_t>(c)];
            h = std::max(h, wrapped_height(f, cell_text(texts, c), w - 2 * l.pad));
        }
        return h + 2 * l.pad;
    };
    l.heights.push_back(row_height(t.headers, l.bold, -1));
    for (int r = 0; r < static_cast<int>(t.rows.size()); ++r)
        l.heights.push_back(row_height(t.rows[static_cast<std::size_t>(r)], font_of(r), r));
    double height = 0;
    for (double h : l.heights) height += h;
    l.fits = total <= area.width() + 0.5 && height <= area.height() + 0.5;
    return l;
}

void paint_table(QPainter& p, const QRectF& area, const SlideTable& t, double unit) {
    if (t.headers.isEmpty()) return;
    // The largest font (30 px down to 10 px on a 1080 px slide) at which the table fits, as it is
    // or with its widest column wrapped.
    TableLayout l;
    for (double px = 30 * unit; px >= 10 * unit; px -= unit) {
        l = layout_table(t, area.size(), px, false);
        if (l.fits) break;
        l = layout_table(t, area.size(), px, true);
        if (l.fits) break;
    }
    const QColor grid(0xc8, 0xcc, 0xd2), header_fill(0xee, 0xf1, 0xf5), winner_fill(0xe3, 0xf2, 0xe1);
    const int cols = static_cast<int>(l.widths.size());
    const double total = l.width(0, cols);
    double y = area.top();
    for (int r = -1; r < static_cast<int>(t.rows.size()); ++r) {
        const bool header = r < 0;
        const QStringList& texts = header ? t.headers : t.rows[static_cast<std::size_t>(r)];
        const bool winner = !header && r == t.highlighted_row;
        const double h = l.heights[static_cast<std::size_t>(r) + 1];  // -1 (the header) wraps to 0
        if (header || winner) p.fillRect(QRectF(area.left(), y, total, h), header ? header_fill : winner_fill);
        p.setFont(header || winner ? l.bold : l.font);
        double x = area.left();
        for (int c = 0; c < cols; ++c) {
            const double cw = l.widths[static_cast<std::size_t>(c)];
            if (!header && covered(t, r, c)) {
                x += cw;
                continue;
            }
            const SlideTable::Span* sp = header ? nullptr : span_at(t, r, c);
            const double w = sp ? l.width(c, sp->count) : cw;
            const QString text = cell_text(texts, c);
            const QRectF cell(x + l.pad, y + l.pad, w - 2 * l.pad, h - 2 * l.pad);
            const Qt::Alignment align = !header && !sp && numeric(text) ? Qt::AlignRight : Qt::AlignLeft;
            p.setPen(sp ? QColor(0xD5, 0x5E, 0x00) : QColor(Qt::black));
            p.drawText(cell, static_cast<int>(Qt::TextWordWrap) | static_cast<int>(align | Qt::AlignVCenter), text);
            x += cw;
        }
        p.setPen(QPen(grid, std::max(1.0, unit)));
        p.drawLine(QPointF(area.left(), y + h), QPointF(area.left() + total, y + h));
        y += h;
    }
}

}  // namespace

double footer_height(const QString& footer, QSizeF page, double side_margin) {
    if (footer.isEmpty()) return 0;
    const double m = footer_margin(page);
    const double side = side_margin > 0 ? side_margin : m;
    return wrapped_height(pixel_font(footer_px(page)), footer, page.width() - 2 * side) + 2 * m;
}

void paint_footer(QPainter& p, QSizeF size, const QString& footer, double side_margin) {
    if (footer.isEmpty()) return;
    const double m = side_margin > 0 ? side_margin : footer_margin(size);
    const double h = footer_height(footer, size, side_margin);
    p.save();
    p.fillRect(QRectF(0, size.height() - h, size.width(), h), Qt::white);
    p.setPen(QPen(QColor(0xc8, 0xcc, 0xd2), 1));
    p.drawLine(QPointF(m, size.height() - h), QPointF(size.width() - m, size.height() - h));
    draw_wrapped(p, QRectF(m, size.height() - h + footer_margin(size), size.width() - 2 * m, h), pixel_font(footer_px(size)), footer,
                 QColor(0x50, 0x55, 0x5c));
    p.restore();
}

void Slide::render(QPainter& p, QSizeF size) const {
    const double unit = size.height() / slide_size.height();
    const double margin = 48 * unit;
    p.save();
    p.fillRect(QRectF(QPointF(0, 0), size), Qt::white);
    const double width = size.width() - 2 * margin;
    double y = margin;
    y += draw_wrapped(p, QRectF(margin, y, width, size.height()), pixel_font(44 * unit, true), title, QColor(0x1f, 0x2a, 0x37));
    y += 14 * unit;
    for (const QString& line : lines) {
        y += draw_wrapped(p, QRectF(margin, y, width, size.height()), pixel_font(26 * unit), line, QColor(0x25, 0x2a, 0x30));
        y += 8 * unit;
    }
    y += 12 * unit;
    const double bottom = size.height() - footer_height(footer, size, margin) - 12 * unit;
    const QRectF body(margin, y, width, std::max(0.0, bottom - y));
    if (body.height() > 20 * unit) {
        if (chart) {
            p.save();
            // Laid out at 2/3 of the body and scaled up: the chart's text is 1.5x as large, as
            // in presentation mode, readable from the back of a room.
            constexpr double zoom = 1.5;
            p.translate(body.topLeft());
            p.setClipRect(QRectF(QPointF(0, 0), body.size()));
            p.scale(zoom, zoom);
            chart->render(p, body.size() / zoom);
            p.restore();
        } else if (widget) {
            const QSize ws = widget->size();
            if (!ws.isEmpty()) {
                const double scale = std::min(body.width() / ws.width(), body.height() / ws.height());
                p.save();
                p.translate(body.left() + (body.width() - ws.width() * scale) / 2, body.top());
                p.scale(scale, scale);
                widget->render(&p, QPoint(), QRegion(), QWidget::DrawWindowBackground | QWidget::DrawChildren);
                p.restore();
            }
        } else if (table) {
            paint_table(p, body, *table, unit);
        }
    }
    paint_footer(p, size, footer, margin);
    p.restore();
}

}  // namespace comet::ui
