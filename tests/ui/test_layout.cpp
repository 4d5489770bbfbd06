// Issue 15, "every page readable": at 1280x720, at 1920x1080 and in presentation mode on a
// 1920x1080 projector, no text on any page is elided ("…") or cut, in widgets, tables, charts
// and the heatmap; in presentation mode every text is at least 28 px. Runs on an offscreen
// screen of 1920x1080 (offscreen-1920x1080.json). COMET_SHOT_DIR=dir saves every page at each
// size there, for looking at.
#include <QtTest>

#include <QAbstractButton>
#include <QChartView>
#include <QComboBox>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QStandardPaths>
#include <QStyleOptionComboBox>
#include <QTabBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextDocument>
#include <algorithm>

#include "analysis_page.hpp"
#include "charts/chart_views.hpp"
#include "compare_page.hpp"
#include "comet/presets.hpp"
#include "comet/report.hpp"
#include "explorer_page.hpp"
#include "forms/parameter_panel.hpp"
#include "fsdp_page.hpp"
#include "heatmap/heatmap_widget.hpp"
#include "main_window.hpp"

#include "ui_fixtures.hpp"

using namespace comet;

namespace {

QString scenario_path(const char* name) {
    return QString::fromStdString((presets_dir() / "scenarios" / (std::string(name) + ".comet.json")).string());
}
QString default_path() { return scenario_path("default"); }

QString name_of(const QWidget* w) {
    QString n = QString::fromLatin1(w->metaObject()->className());
    if (!w->objectName().isEmpty()) n += QLatin1Char('#') + w->objectName();
    if (!w->accessibleName().isEmpty()) n += QStringLiteral(" \"") + w->accessibleName() + QLatin1Char('"');
    return n;
}

QString plain(const QString& text) {
    if (!Qt::mightBeRichText(text)) return text;
    QTextDocument doc;
    doc.setHtml(text);
    return doc.toPlainText();
}

// On screen, or reachable by scrolling: visible up to the window (not on a hidden tab).
bool shown(const QWidget* w, const QWidget* root) { return w->isVisibleTo(root) && w->width() > 0 && w->height() > 0; }

// What a combo box draws: a preset picker says (it may show a shorter name), else its current text.
QString shown_text(QComboBox* c) {
    QString drawn;
    return QMetaObject::invokeMethod(c, "displayedText", Qt::DirectConnection, Q_RETURN_ARG(QString, drawn)) ? drawn : c->currentText();
}

// Every text that is elided or cut on `root`'s visible widgets, one line each (empty: none).
QStringList cut_texts(QWidget* root) {
    QStringList out;
    auto flag = [&](const QWidget* w, const QString& what) { out << name_of(w) + QStringLiteral(": ") + what; };
    QList<QWidget*> widgets = root->findChildren<QWidget*>();
    widgets.prepend(root);
    for (QWidget* w : widgets) {
        if (!shown(w, root)) continue;
        if (auto* l = qobject_cast<QLabel*>(w)) {
            const QString text = plain(l->text());
            if (text.isEmpty()) continue;
            if (!l->wordWrap() && l->sizeHint().width() > l->width() + 1)
                flag(l, QStringLiteral("\"%1\" needs %2 px, has %3").arg(text).arg(l->sizeHint().width()).arg(l->width()));
            if (l->wordWrap() && l->heightForWidth(l->width()) > l->height() + 1)
                flag(l, QStringLiteral("\"%1\" needs %2 px height, has %3")
                            .arg(text.left(60))
                            .arg(l->heightForWidth(l->width()))
                            .arg(l->height()));
        } else if (auto* b = qobject_cast<QAbstractButton*>(w)) {
            if (!b->text().isEmpty() && b->sizeHint().width() > b->width() + 1)
                flag(b, QStringLiteral("\"%1\" needs %2 px, has %3").arg(b->text()).arg(b->sizeHint().width()).arg(b->width()));
        } else if (auto* c = qobject_cast<QComboBox*>(w)) {
            QStyleOptionComboBox opt;
            opt.initFrom(c);
            opt.editable = c->isEditable();
            const QRect field = c->style()->subControlRect(QStyle::CC_ComboBox, &opt, QStyle::SC_ComboBoxEditField, c);
            const QString text = shown_text(c);
            const int need = c->fontMetrics().horizontalAdvance(text);
            if (need > field.width() || text.contains(QChar(0x2026)))
                flag(c, QStringLiteral("\"%1\" needs %2 px, has %3").arg(text).arg(need).arg(field.width()));
        } else if (auto* e = qobject_cast<QLineEdit*>(w)) {
            const QString text = e->text().isEmpty() ? e->placeholderText() : e->text();
            const QMargins m = e->textMargins();
            const int room = e->width() - 2 * e->style()->pixelMetric(QStyle::PM_DefaultFrameWidth, nullptr, e) - 4 - m.left() - m.right();
            const int need = e->fontMetrics().horizontalAdvance(text);
            // A spin box's field shows its value; a free line edit may scroll, but a placeholder is elided.
            if (!text.isEmpty() && need > room) flag(e, QStringLiteral("\"%1\" needs %2 px, has %3").arg(text).arg(need).arg(room));
        } else if (auto* t = qobject_cast<QTabBar*>(w)) {
            for (int i = 0; i < t->count(); ++i) {
                QString text = t->tabText(i);
                text.replace(QStringLiteral("&&"), QStringLiteral("\x01"))
                    .remove(QLatin1Char('&'))
                    .replace(QStringLiteral("\x01"), QStringLiteral("&"));
                const int need = t->fontMetrics().horizontalAdvance(text) + t->style()->pixelMetric(QStyle::PM_TabBarTabHSpace, nullptr, t);
                if (t->tabRect(i).width() < need || !t->rect().contains(t->tabRect(i)))
                    flag(t, QStringLiteral("tab \"%1\" needs %2 px, has %3").arg(text).arg(need).arg(t->tabRect(i).width()));
            }
        } else if (auto* v = qobject_cast<QTableView*>(w)) {
            QAbstractItemModel* model = v->model();
            for (int row = 0; row < model->rowCount(); ++row) {
                if (v->isRowHidden(row)) continue;
                for (int col = 0; col < model->columnCount(); ++col) {
                    if (v->isColumnHidden(col)) continue;
                    const QModelIndex idx = model->index(row, col);
                    const QString text = idx.data().toString();
                    if (text.isEmpty()) continue;
                    int width = 0;
                    for (int k = col; k < col + v->columnSpan(row, col); ++k) width += v->columnWidth(k);
                    const QSize need = v->sizeHintForIndex(idx);
                    if (need.width() > width + 1)
                        flag(v, QStringLiteral("cell (%1, %2) \"%3\" needs %4 px, has %5")
                                    .arg(row)
                                    .arg(col)
                                    .arg(text)
                                    .arg(need.width())
                                    .arg(width));
                }
            }
            for (QHeaderView* h : {v->horizontalHeader(), v->verticalHeader()}) {
                if (!h->isVisible()) continue;
                for (int s = 0; s < h->count(); ++s) {
                    const QString text = model->headerData(s, h->orientation()).toString();
                    if (text.isEmpty() || h->isSectionHidden(s) || h->orientation() == Qt::Vertical) continue;
                    const int margin = 2 * h->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, h);
                    const int need = h->fontMetrics().horizontalAdvance(text) + margin;
                    if (need > h->sectionSize(s) + 1)
                        flag(h, QStringLiteral("header \"%1\" needs %2 px, has %3").arg(text).arg(need).arg(h->sectionSize(s)));
                }
            }
        } else if (auto* cv = qobject_cast<QChartView*>(w)) {
            for (QGraphicsItem* item : cv->scene()->items()) {
                if (!item->isVisible()) continue;
                QString text;
                if (auto* ti = dynamic_cast<QGraphicsTextItem*>(item))
                    text = ti->toPlainText();
                else if (auto* si = dynamic_cast<QGraphicsSimpleTextItem*>(item))
                    text = si->text();
                // Qt Charts elides axis labels and titles with "...".
                if (text.contains(QChar(0x2026)) || text.contains(QStringLiteral("...")))
                    flag(cv, QStringLiteral("chart text \"%1\"").arg(text));
            }
        } else if (auto* h = qobject_cast<ui::HeatmapWidget*>(w)) {
            for (const QString& text : h->shownTexts())
                if (text.contains(QChar(0x2026))) flag(h, QStringLiteral("\"%1\"").arg(text));
        }
    }
    return out;
}

// Text smaller than `px` on `root`'s visible widgets (the font each widget draws with).
QStringList small_texts(QWidget* root, int px) {
    QStringList out;
    QList<QWidget*> widgets = root->findChildren<QWidget*>();
    for (QWidget* w : widgets) {
        if (!shown(w, root)) continue;
        const bool text = qobject_cast<QLabel*>(w) || qobject_cast<QAbstractButton*>(w) || qobject_cast<QComboBox*>(w) ||
                          qobject_cast<QLineEdit*>(w) || qobject_cast<QTabBar*>(w) || qobject_cast<QAbstractItemView*>(w) ||
                          qobject_cast<QHeaderView*>(w) || qobject_cast<ui::HeatmapWidget*>(w);
        if (!text) continue;
        if (auto* l = qobject_cast<QLabel*>(w); l && l->text().isEmpty()) continue;
        const int size = QFontInfo(w->font()).pixelSize();
        if (size < px) out << name_of(w) + QStringLiteral(": %1 px").arg(size);
    }
    // Chart text is drawn zoomed: its size on screen is its font's times the view's scale.
    for (QChartView* v : root->findChildren<QChartView*>()) {
        if (!shown(v, root)) continue;
        for (QGraphicsItem* item : v->scene()->items()) {
            QFont f;
            QString text;
            if (auto* ti = dynamic_cast<QGraphicsTextItem*>(item))
                f = ti->font(), text = ti->toPlainText();
            else if (auto* si = dynamic_cast<QGraphicsSimpleTextItem*>(item))
                f = si->font(), text = si->text();
            else
                continue;
            if (!item->isVisible() || text.trimmed().isEmpty()) continue;
            const double on_screen = f.pointSizeF() * v->logicalDpiY() / 72.0 * v->transform().m11();
            if (on_screen < px - 0.1) out << name_of(v) + QStringLiteral(": \"%1\" %2 px").arg(text.left(30)).arg(on_screen, 0, 'f', 1);
        }
    }
    return out;
}

// The row labels a bar chart (by its accessible name) draws (Qt Charts' texts left of the plot,
// beside the bars), as plain text with a wrapped label's lines joined by spaces, top to bottom.
QStringList row_labels(QWidget* root, const QString& chart = QStringLiteral("Iteration time breakdown chart")) {
    QList<QGraphicsTextItem*> items;
    for (QChartView* v : root->findChildren<QChartView*>()) {
        if (v->accessibleName() != chart) continue;
        const QRectF plot = v->chart()->plotArea();
        for (QGraphicsItem* item : v->scene()->items()) {
            auto* t = dynamic_cast<QGraphicsTextItem*>(item);
            if (!t || !t->isVisible() || t->toPlainText().trimmed().isEmpty()) continue;
            const QRectF r = t->mapRectToItem(v->chart(), t->boundingRect());
            if (r.center().x() < plot.left() && r.center().y() > plot.top() && r.center().y() < plot.bottom()) items << t;
        }
    }
    std::sort(items.begin(), items.end(), [](auto* a, auto* b) { return a->scenePos().y() < b->scenePos().y(); });
    QStringList out;
    for (QGraphicsTextItem* t : items)
        out << t->toPlainText().replace(QChar(0x2028), QLatin1Char(' ')).replace(QChar(0x00A0), QLatin1Char(' ')).simplified();
    return out;
}

// Charts take the zoom of presentation mode when they are made: a window starts unzoomed, as the
// app does, whatever the window of the test before left behind.
struct Unzoomed {
    Unzoomed() { ui::set_chart_zoom(1.0); }
};

struct Window {
    Unzoomed unzoomed;  // before the window's charts are made
    app::MainWindow w;
    explicit Window(QSize size, bool presentation, const QString& scenario = default_path()) {
        w.resize(size);
        w.start(scenario, false);
        w.show();
        if (!QTest::qWaitForWindowExposed(&w)) qWarning("window not exposed");
        if (presentation) {
            w.setPresentationMode(true);
            // Full screen is the offscreen screen's 1920x1080: a smaller projector is the window at `size`.
            w.setWindowState(Qt::WindowNoState);
            w.resize(size);
            QCoreApplication::processEvents();  // the text scales to the new height: the minimum shrinks
            w.resize(size);
        }
        QTRY_VERIFY_WITH_TIMEOUT(w.explorer()->lastEvaluation().has_value(), 30000);
        w.compare()->waitForResults();
        w.analysis()->waitForResults();
        w.fsdp()->waitForResults();
    }
    // Shows a page and lets it lay out (splitters, wrapped labels, charts).
    void showPage(QWidget* page) {
        w.pages()->setCurrentWidget(page);
        for (int i = 0; i < 12; ++i) {
            QCoreApplication::processEvents();
            QTest::qWait(25);
        }
    }
};

void save_shot(QWidget& w, const QString& name) {
    const QByteArray dir = qgetenv("COMET_SHOT_DIR");
    if (!dir.isEmpty()) w.grab().save(QString::fromLocal8Bit(dir) + QLatin1Char('/') + name + QStringLiteral(".png"));
}

}  // namespace

class TestLayout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        test::isolate_user_state(QStringLiteral("test_layout"));
        const QRect screen = QGuiApplication::primaryScreen()->geometry();
        QVERIFY2(screen.width() >= 1920 && screen.height() >= 1080,
                 qPrintable(QStringLiteral("the test needs a 1920x1080 screen (QT_QPA_PLATFORM=offscreen:configfile=...), has %1x%2")
                                .arg(screen.width())
                                .arg(screen.height())));
    }

    // The default scenario, an MoE one comparing seven memory tiers of four designs on a node
    // with a long preset name (GB300 NVL72 ...), and Mixtral (a long-context MoE, no token budget).
    void nothingIsCutOnAnyPage_data() {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("presentation");
        QTest::addColumn<QString>("scenario");
        for (const char* name : {"default", "gb300-vs-2x-h100-400b-moe", "mixtral-8x7b-32k-128xh100"}) {
            const QString s = scenario_path(name);
            const QString tag =
                qstrcmp(name, "default") == 0 ? QString() : QStringLiteral(" ") + QString::fromLatin1(name).section(QLatin1Char('-'), 0, 0);
            QTest::newRow(qPrintable(QStringLiteral("1280x720") + tag)) << QSize(1280, 720) << false << s;
            QTest::newRow(qPrintable(QStringLiteral("1920x1080") + tag)) << QSize(1920, 1080) << false << s;
            QTest::newRow(qPrintable(QStringLiteral("presentation 1920x1080") + tag)) << QSize(1920, 1080) << true << s;
            QTest::newRow(qPrintable(QStringLiteral("presentation 1280x720") + tag)) << QSize(1280, 720) << true << s;
        }
    }
    void nothingIsCutOnAnyPage() {
        QFETCH(QSize, size);
        QFETCH(bool, presentation);
        QFETCH(QString, scenario);
        Window win(size, presentation, scenario);
        QCOMPARE(win.w.size(), size);
        const QStringList names{QStringLiteral("explore"), QStringLiteral("compare"), QStringLiteral("analysis"), QStringLiteral("fsdp")};
        QStringList problems;
        for (int i = 0; i < win.w.pages()->count(); ++i) {
            QWidget* page = win.w.pages()->widget(i);
            win.showPage(page);
            save_shot(win.w, names[i] + QLatin1Char('-') +
                                 QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-')));
            for (const QString& p : cut_texts(&win.w)) problems << names[i] + QStringLiteral(": ") + p;
            // 28 px on a 1080-pixel-high screen; presentation mode scales with the height, as a slide.
            if (presentation)
                for (const QString& p : small_texts(&win.w, 28 * size.height() / 1080))
                    problems << names[i] + QStringLiteral(": small text: ") + p;
            // The heatmap keeps at least 40 % of its page (it was a 100 px strip at 1920x1080).
            if (presentation && page == win.w.explorer()) {
                const auto* heatmap = page->findChild<ui::HeatmapWidget*>();
                QVERIFY(heatmap);
                if (heatmap->height() < page->height() * 2 / 5)
                    problems << QStringLiteral("explore: the heatmap is %1 px of the page's %2").arg(heatmap->height()).arg(page->height());
            }
        }
        problems.removeDuplicates();
        for (const QString& p : problems) qWarning("%s", qPrintable(p));
        QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("%1 texts cut or small (listed above)").arg(problems.size())));
    }

    // The breakdown's one bar names the current strategy whole, in presentation mode too (it was
    // cut by Qt Charts, "… ep64 v2 recompute=none zer...", or shortened to "Current"): the default
    // scenario and an MoE one, whose strategy text is longer.
    void breakdownRowNamesTheCurrentStrategy_data() {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("presentation");
        QTest::addColumn<QString>("scenario");
        for (const char* name : {"default", "gb300-vs-2x-h100-400b-moe"}) {
            const QString s = scenario_path(name);
            const QString tag = QStringLiteral(" ") + QString::fromLatin1(name).section(QLatin1Char('-'), 0, 0);
            QTest::newRow(qPrintable(QStringLiteral("1280x720") + tag)) << QSize(1280, 720) << false << s;
            QTest::newRow(qPrintable(QStringLiteral("1920x1080") + tag)) << QSize(1920, 1080) << false << s;
            QTest::newRow(qPrintable(QStringLiteral("presentation 1920x1080") + tag)) << QSize(1920, 1080) << true << s;
        }
    }
    void breakdownRowNamesTheCurrentStrategy() {
        QFETCH(QSize, size);
        QFETCH(bool, presentation);
        QFETCH(QString, scenario);
        Window win(size, presentation, scenario);
        win.showPage(win.w.explorer());
        save_shot(win.w, QStringLiteral("explore-breakdown-") +
                             QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-')));
        const ui::Evaluation& e = *win.w.explorer()->lastEvaluation();
        const QString current = QStringLiteral("Current: ") + QString::fromStdString(format_strategy(e.config.strategy));
        QCOMPARE(row_labels(win.w.explorer()), QStringList{current});
        QStringList problems;
        for (const QString& p : cut_texts(win.w.explorer()))
            if (p.contains(QStringLiteral("Iteration time breakdown chart"))) problems << p;
        for (const QString& p : problems) qWarning("%s", qPrintable(p));
        QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("%1 texts cut in the breakdown (listed above)").arg(problems.size())));
    }

    // The MoE comparison's seven memory rows (HBM and expanded memory of four designs) each name
    // their tier and design readably: the whole "HBM · GB300 x256, saved strategy" where the rows
    // have room, else "#1 HBM" after the table's row number of the design (it was "HBM · GB300
    // x25…" at 1280x720 and in presentation mode); the breakdown beside it names its bars whole.
    void compareMemoryRowsNameTheirDesigns_data() {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("presentation");
        QTest::newRow("1280x720") << QSize(1280, 720) << false;
        QTest::newRow("1920x1080") << QSize(1920, 1080) << false;
        QTest::newRow("presentation 1920x1080") << QSize(1920, 1080) << true;
    }
    void compareMemoryRowsNameTheirDesigns() {
        QFETCH(QSize, size);
        QFETCH(bool, presentation);
        Window win(size, presentation, scenario_path("gb300-vs-2x-h100-400b-moe"));
        win.showPage(win.w.compare());
        QTableWidget* table = win.w.compare()->table();
        QStringList full, numbered;
        for (int row = 0; row < table->rowCount(); ++row) {
            const QString name = table->item(row, 0)->text();
            QVERIFY(table->verticalHeaderItem(row));
            const QString number = table->verticalHeaderItem(row)->text();
            QCOMPARE(number, QStringLiteral("#%1").arg(row + 1));
            const bool two_tiers = row != 1;  // the H100 design has no expanded memory
            full << (two_tiers ? QStringLiteral("HBM · ") + name : name);
            numbered << number + QStringLiteral(" HBM");
            if (two_tiers) full << QStringLiteral("Expanded · ") + name, numbered << number + QStringLiteral(" Expanded");
        }
        QVERIFY(table->verticalHeader()->isVisible());
        const QStringList drawn = row_labels(win.w.compare(), QStringLiteral("Memory per accelerator chart"));
        QVERIFY2(drawn == full || drawn == numbered, qPrintable(drawn.join(QStringLiteral(" | "))));
        const QStringList bars = row_labels(win.w.compare());
        QCOMPARE(bars.size(), table->rowCount());
        for (int row = 0; row < table->rowCount(); ++row)
            QVERIFY2(bars[row].endsWith(QStringLiteral(" · ") + table->item(row, 0)->text()), qPrintable(bars[row]));
        QStringList problems = cut_texts(win.w.compare());
        for (const QString& p : problems) qWarning("%s", qPrintable(p));
        QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("%1 texts cut (listed above)").arg(problems.size())));
    }

    // Every node and model preset, chosen, is named readably in its closed picker at 1280x720 and
    // 1920x1080: whole, or its short name ("GB300 NVL72"), never cut at the field's edge ("GB300
    // NVL72 (one 4-GPU compute tray of"); the short names tell the presets apart, and the tooltip
    // names the chosen one whole.
    void presetPickersNameEveryPresetWhole_data() {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x720") << QSize(1280, 720);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }
    void presetPickersNameEveryPresetWhole() {
        QFETCH(QSize, size);
        Window win(size, false);
        win.showPage(win.w.explorer());
        QStringList problems;
        for (QComboBox* picker : {win.w.parameters()->nodePresetPicker(), win.w.parameters()->modelPresetPicker()}) {
            QVERIFY(picker->isVisible());
            const QSignalBlocker block(picker);  // show each name; apply none
            QStringList shown;
            for (int i = 1; i < picker->count(); ++i) {
                picker->setCurrentIndex(i);
                const QString full = picker->itemText(i);
                const QString text = shown_text(picker);
                QStyleOptionComboBox opt;
                opt.initFrom(picker);
                const int room = picker->style()->subControlRect(QStyle::CC_ComboBox, &opt, QStyle::SC_ComboBoxEditField, picker).width();
                const int need = picker->fontMetrics().horizontalAdvance(text);
                if (need > room || text.contains(QChar(0x2026)) || !full.startsWith(text))
                    problems
                        << QStringLiteral("%1: \"%2\" shows \"%3\", %4 px in %5").arg(picker->objectName(), full, text).arg(need).arg(room);
                if (text != full && !plain(picker->itemData(i, Qt::ToolTipRole).toString()).contains(full))
                    problems << QStringLiteral("%1: tooltip of \"%2\" does not name it").arg(picker->objectName(), full);
                if (shown.contains(text)) problems << QStringLiteral("%1: two presets show \"%2\"").arg(picker->objectName(), text);
                shown << text;
            }
        }
        for (const QString& p : problems) qWarning("%s", qPrintable(p));
        QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("%1 preset names cut (listed above)").arg(problems.size())));
    }

    // In presentation mode (no status bar) the breakdown's rows may read just "Current",
    // "Selected", "Pin 1" (a selected or pinned cell; Mixtral's long strategy even alone): the
    // current strategy is still named whole on the page, and nothing is cut.
    void presentationNamesTheCurrentStrategy_data() {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<bool>("select");
        QTest::addColumn<int>("pins");
        for (const char* name : {"default", "gb300-vs-2x-h100-400b-moe", "mixtral-8x7b-32k-128xh100"}) {
            const QString tag = QString::fromLatin1(name).section(QLatin1Char('-'), 0, 0);
            QTest::newRow(qPrintable(tag + QStringLiteral(", nothing selected"))) << scenario_path(name) << false << 0;
            QTest::newRow(qPrintable(tag + QStringLiteral(", selected"))) << scenario_path(name) << true << 0;
            QTest::newRow(qPrintable(tag + QStringLiteral(", selected and 3 pins"))) << scenario_path(name) << true << 3;
            QTest::newRow(qPrintable(tag + QStringLiteral(", 2 pins"))) << scenario_path(name) << false << 2;
        }
    }
    void presentationNamesTheCurrentStrategy() {
        QFETCH(QString, scenario);
        QFETCH(bool, select);
        QFETCH(int, pins);
        Window win(QSize(1920, 1080), true, scenario);
        ui::HeatmapWidget* h = win.w.explorer()->heatmap();
        const std::vector<ui::CellIndex> cells{{2, 3}, {20, 10}, {30, 30}};
        for (int i = 0; i < pins; ++i) Q_EMIT h->cellPinned(cells[static_cast<std::size_t>(i)]);
        if (select) win.w.explorer()->selectCell({16, 16});
        win.showPage(win.w.explorer());
        save_shot(win.w,
                  QStringLiteral("explore-presentation-current-") +
                      QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-')).remove(QLatin1Char(',')));
        QCOMPARE(win.w.explorer()->shownBars().size(), std::size_t(1 + (select ? 1 : 0) + pins));
        const ui::Evaluation& e = *win.w.explorer()->lastEvaluation();
        const QString current = QStringLiteral("Current: ") + QString::fromStdString(format_strategy(e.config.strategy));
        QStringList texts = row_labels(win.w.explorer());
        for (QLabel* l : win.w.findChildren<QLabel*>())
            if (shown(l, &win.w)) texts << plain(l->text()).simplified();
        QVERIFY2(std::any_of(texts.begin(), texts.end(), [&](const QString& t) { return t.contains(current); }),
                 qPrintable(QStringLiteral("\"%1\" is nowhere among: %2").arg(current, texts.join(QStringLiteral(" | ")))));
        QStringList problems = cut_texts(&win.w) + small_texts(&win.w, 28);
        for (const QString& p : problems) qWarning("%s", qPrintable(p));
        QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("%1 texts cut or small (listed above)").arg(problems.size())));
    }

    // Presentation with a selected cell and three pinned ones: five bars, all labels whole.
    void pinnedCellsInPresentationAreReadable() {
        Window win(QSize(1920, 1080), true);
        ui::HeatmapWidget* h = win.w.explorer()->heatmap();
        for (const ui::CellIndex c : {ui::CellIndex{2, 3}, ui::CellIndex{20, 10}, ui::CellIndex{30, 30}}) Q_EMIT h->cellPinned(c);
        win.w.explorer()->selectCell({16, 16});
        win.showPage(win.w.explorer());
        QCOMPARE(win.w.explorer()->shownBars().size(), std::size_t{5});
        save_shot(win.w, QStringLiteral("explore-presentation-pinned"));
        QStringList problems = cut_texts(&win.w) + small_texts(&win.w, 28);
        for (const QString& p : problems) qWarning("%s", qPrintable(p));
        QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("%1 texts cut or small (listed above)").arg(problems.size())));
    }
};

QTEST_MAIN(TestLayout)
#include "test_layout.moc"
