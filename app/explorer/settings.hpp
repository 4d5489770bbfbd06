#pragma once
// Everything the explorer remembers between runs, behind typed accessors (keys in one place).

#include <QByteArray>
#include <QStringList>

#include "explorer_page.hpp"

namespace comet::app {

class Settings {
public:
    [[nodiscard]] QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray& g);
    [[nodiscard]] QByteArray windowState() const;
    void setWindowState(const QByteArray& s);
    [[nodiscard]] QByteArray splitterState() const;
    void setSplitterState(const QByteArray& s);

    [[nodiscard]] QStringList recentFiles() const;
    void addRecentFile(const QString& path);  // most recent first, at most 8, existing files only
    [[nodiscard]] QString lastScenario() const;
    void setLastScenario(const QString& path);

    [[nodiscard]] ExplorerPage::View explorerView() const;
    void setExplorerView(const ExplorerPage::View& v);

    static constexpr int layout_version = 2;  // bump when the window layout changes (2: main toolbar)
};

}  // namespace comet::app
