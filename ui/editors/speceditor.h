// SPDX-License-Identifier: GPL-3.0-or-later
// The line where a Python subscript is typed: coloured by token kind, with the parse error
// underlined at its exact position, the decode step's tokens lit, and a history on Up/Down.
#pragma once

#include <QLineEdit>
#include <QStringList>

#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace ss::ui {

class SpecEditor : public QLineEdit
{
    Q_OBJECT
public:
    using Range = std::pair<int, int>; ///< [begin, end) in characters

    explicit SpecEditor(QWidget* parent = nullptr);

    /// Replaces the text without counting as a user edit (undo, lessons, the raw table).
    void setExpression(const QString& text);
    /// Underlines the token at `position` and explains it in the tooltip; nullopt clears.
    void setError(std::optional<int> position, const QString& message);
    std::optional<int> errorPosition() const { return m_errorPosition; }
    /// The characters underlined: the whole token at the error's position.
    std::optional<Range> errorRange() const;
    QString errorMessage() const { return m_errorMessage; }
    /// Lights these character ranges (the spec entries the current decode step talks about).
    void setLitRanges(std::vector<Range> ranges);
    const std::vector<Range>& litRanges() const { return m_lit; }

    /// What reading a pasted call gave: the op switched (ok), or why not and where.
    struct CallResult
    {
        bool ok = false;
        std::optional<int> position;
        QString message;
    };
    /// Reads a call typed or pasted into the field (tf.strided_slice(x, ...), node text, x[1][2]):
    /// the window sets it. Without one, every text is a subscript.
    using CallReader = std::function<CallResult(const QString& text)>;
    void setCallReader(CallReader reader) { m_callReader = std::move(reader); }
    /// Why the call in the field does not read, empty while the field holds none (or one that
    /// read).
    QString callError() const { return m_callError; }

    /// Remembers an expression that evaluated well (newest last, no duplicates, at most 50).
    void addToHistory(const QString& expression);
    QStringList history() const { return m_history; }
    void setHistory(const QStringList& history);

signals:
    /// The text changed other than through setExpression (typing, pasting, history recall,
    /// setText, accessibility, automation): each such change is reported once.
    void expressionEdited(const QString& text);
    /// callError() changed.
    void callErrorChanged();

protected:
    bool event(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void refreshFormats();
    void recall(int step);
    void setCallError(const QString& error);

    std::optional<int> m_errorPosition;
    QString m_errorMessage;
    std::vector<Range> m_lit;
    QStringList m_history;
    int m_historyIndex = -1;  ///< -1: editing a new line, not browsing the history
    QString m_draft;          ///< the unfinished line saved while browsing the history
    bool m_recalling = false; ///< the text being changed is a history recall
    CallReader m_callReader;
    QString m_callError;
};

} // namespace ss::ui
