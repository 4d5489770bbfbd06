#include "help_menu.hpp"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QRegularExpression>
#include <algorithm>

#include "comet/presets.hpp"
#include "main_window.hpp"

namespace comet::app {

QStringList shortcut_lines(const QWidget* window) {
    QStringList lines;
    for (const QAction* a : window->findChildren<QAction*>()) {
        if (a->shortcuts().isEmpty() || a->text().isEmpty()) continue;
        QStringList keys;
        for (const QKeySequence& k : a->shortcuts()) keys << k.toString(QKeySequence::NativeText);
        QString name = a->text();
        static const QRegularExpression mnemonic(QStringLiteral("(?<!&)&(?!&)"));  // a lone '&', not "&&"
        name.remove(mnemonic).replace(QStringLiteral("&&"), QStringLiteral("&"));
        const QString line = name + QLatin1Char('\t') + keys.join(QStringLiteral(", "));
        if (!lines.contains(line)) lines << line;
    }
    lines << QObject::tr("Step through designs or pinned cells (presentation mode)\tRight, Left, Page Down, Page Up, Space")
          << QObject::tr("Leave presentation mode\tEsc");
    std::sort(lines.begin(), lines.end(), [](const QString& a, const QString& b) { return a.localeAwareCompare(b) < 0; });
    return lines;
}

QString quick_start_html() {
    return QObject::tr(
        "<h3>Quick start: the best strategy for a model on a cluster</h3><ol>"
        "<li><b>Node preset</b> (Node group): pick the hardware, e.g. DGX H100. Its power and, when published, its "
        "GPU-hour price come with it.</li>"
        "<li><b>Nodes</b> (Cluster group): how many, e.g. 8 for 64 GPUs.</li>"
        "<li><b>Model preset</b> (Model group): e.g. Llama 3 70B. The sequence length, precision, attention kernel, "
        "dropout and batch it was trained with come with it; the note under the picker lists what changed.</li>"
        "<li><b>Find Best Strategy</b> (Ctrl+B, toolbar): searches every strategy, applies the fastest and lists the ten "
        "best with why each beats the next. Ctrl+Z undoes any step.</li></ol>"
        "<p>Then sweep two knobs on <b>Explore</b>, compare up to four designs on <b>Compare Designs</b>, see cost and which "
        "resource matters on <b>Cost &amp; Sensitivity</b>. Press F5 to present.</p>");
}

void fill_help_menu(QMenu* help, MainWindow* window) {
    help->addAction(QObject::tr("&Quick Start"), window, [window] {
        QMessageBox box(QMessageBox::Information, QObject::tr("Quick Start"), quick_start_html(), QMessageBox::Ok, window);
        box.setObjectName(QStringLiteral("quickStartBox"));
        box.exec();
    });
    QMenu* examples = help->addMenu(QObject::tr("Open &Example"));
    examples->setObjectName(QStringLiteral("examplesMenu"));
    const QDir dir(QString::fromStdString((presets_dir() / "scenarios").string()));
    for (const QFileInfo& f : dir.entryInfoList({QStringLiteral("*.comet.json")}, QDir::Files, QDir::Name)) {
        const QString path = f.absoluteFilePath();
        QAction* a = examples->addAction(f.fileName().chopped(int(sizeof(".comet.json")) - 1), window,
                                         [window, path] { (void)window->openFile(path); });
        a->setData(path);
        a->setToolTip(path);
    }
    examples->setEnabled(!examples->isEmpty());
    help->addAction(QObject::tr("&Keyboard Shortcuts"), window, [window] {
        QString html = QStringLiteral("<table cellspacing=4>");
        for (const QString& line : shortcut_lines(window)) {
            const QStringList parts = line.split(QLatin1Char('\t'));
            html += QStringLiteral("<tr><td>%1</td><td><b>%2</b></td></tr>")
                        .arg(parts.value(0).toHtmlEscaped(), parts.value(1).toHtmlEscaped());
        }
        html += QStringLiteral("</table>");
        QMessageBox box(QMessageBox::Information, QObject::tr("Keyboard Shortcuts"), html, QMessageBox::Ok, window);
        box.setObjectName(QStringLiteral("shortcutsBox"));
        box.exec();
    });
    help->addSeparator();
}

}  // namespace comet::app
