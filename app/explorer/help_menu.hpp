#pragma once
// The Help menu: a quick start, the shipped example scenarios (open one), the keyboard
// shortcuts (read from the window's actions, so the list cannot drift) and About.

#include <QString>
#include <QStringList>

class QMenu;
class QWidget;

namespace comet::app {

class MainWindow;

void fill_help_menu(QMenu* help, MainWindow* window);

// "Ctrl+B\tFind Best Strategy" lines of every action of `window` with a shortcut, sorted by name.
[[nodiscard]] QStringList shortcut_lines(const QWidget* window);
// The quick start text (HTML).
[[nodiscard]] QString quick_start_html();

}  // namespace comet::app
