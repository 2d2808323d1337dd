//! A small marked YAML tree built from yaml-rust2 events.
//!
//! The ignore file needs positions (errors with line and column, appending
//! after the last rule) and raw scalar text (an unquoted account id such as
//! 012345678901 must keep its leading zero), which a plain YAML load loses.

use super::error::IgnoreError;
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};

/// A source position: 1-based line and column, 0-based char index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pos {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// Char index into the source.
    pub index: usize,
}

impl From<Marker> for Pos {
    fn from(m: Marker) -> Self {
        Pos {
            line: m.line(),
            column: m.col() + 1,
            index: m.index(),
        }
    }
}

/// A YAML node with its position.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// A scalar with its raw text and quoting style.
    Scalar {
        /// The scalar text as parsed.
        text: String,
        /// Plain, quoted or block.
        style: TScalarStyle,
        /// Where it starts.
        pos: Pos,
    },
    /// A sequence.
    Seq {
        /// Items.
        items: Vec<Node>,
        /// Where it starts.
        pos: Pos,
        /// Where its end event was reported.
        end: Pos,
        /// Written in flow style (`[...]`).
        flow: bool,
    },
    /// A mapping (keys kept in order).
    Map {
        /// Key/value pairs.
        entries: Vec<(Node, Node)>,
        /// Where it starts.
        pos: Pos,
    },
    /// An alias (`*name`), which the ignore file does not allow.
    Alias {
        /// Where it is.
        pos: Pos,
    },
}

impl Node {
    /// The node's start position (the first key for a block mapping).
    pub fn pos(&self) -> Pos {
        match self {
            Node::Scalar { pos, .. } | Node::Seq { pos, .. } | Node::Alias { pos } => *pos,
            Node::Map { entries, pos } => entries.first().map(|(k, _)| k.pos()).unwrap_or(*pos),
        }
    }

    /// True for a plain empty scalar or `~` / `null` (YAML null).
    pub fn is_null(&self) -> bool {
        matches!(self, Node::Scalar { text, style: TScalarStyle::Plain, .. }
            if text.is_empty() || text == "~" || text == "null" || text == "Null" || text == "NULL")
    }

    /// A short name of the node kind, for errors.
    pub fn kind(&self) -> &'static str {
        match self {
            Node::Scalar { .. } if self.is_null() => "null",
            Node::Scalar { .. } => "a scalar",
            Node::Seq { .. } => "a list",
            Node::Map { .. } => "a mapping",
            Node::Alias { .. } => "an alias",
        }
    }
}

enum Frame {
    Seq(Vec<Node>, Pos, bool),
    Map(Vec<Node>, Pos),
}

/// Deepest nesting accepted: a rule sits at depth 3, and a tree nested
/// thousands deep would overflow the stack when dropped.
const MAX_DEPTH: usize = 32;

struct Builder<'s> {
    chars: &'s [char],
    stack: Vec<Frame>,
    docs: Vec<Node>,
    /// Where nesting first went past [`MAX_DEPTH`], and how deep it is now
    /// past it (those events are not built).
    too_deep: Option<(Pos, usize)>,
}

impl Builder<'_> {
    /// Counts nesting past the limit; true when the event is to be skipped.
    fn skip_deep(&mut self, ev: &Event, pos: Pos) -> bool {
        let opens = matches!(ev, Event::SequenceStart(..) | Event::MappingStart(..));
        let closes = matches!(ev, Event::SequenceEnd | Event::MappingEnd);
        match &mut self.too_deep {
            Some((_, extra)) if *extra > 0 => {
                if opens {
                    *extra += 1;
                } else if closes {
                    *extra -= 1;
                }
                true
            }
            _ if opens && self.stack.len() >= MAX_DEPTH => {
                let first = self.too_deep.map_or(pos, |(p, _)| p);
                self.too_deep = Some((first, 1));
                true
            }
            _ => false,
        }
    }

    fn push(&mut self, node: Node) {
        match self.stack.last_mut() {
            Some(Frame::Seq(items, _, _)) => items.push(node),
            Some(Frame::Map(items, _)) => items.push(node),
            None => self.docs.push(node),
        }
    }
}

impl MarkedEventReceiver for Builder<'_> {
    fn on_event(&mut self, ev: Event, mark: Marker) {
        let pos = Pos::from(mark);
        if self.skip_deep(&ev, pos) {
            return;
        }
        match ev {
            Event::Scalar(text, style, _, _) => self.push(Node::Scalar { text, style, pos }),
            Event::Alias(_) => self.push(Node::Alias { pos }),
            Event::SequenceStart(..) => {
                let flow = self.chars.get(pos.index) == Some(&'[');
                self.stack.push(Frame::Seq(Vec::new(), pos, flow));
            }
            Event::MappingStart(..) => self.stack.push(Frame::Map(Vec::new(), pos)),
            Event::SequenceEnd => {
                if let Some(Frame::Seq(items, start, flow)) = self.stack.pop() {
                    self.push(Node::Seq {
                        items,
                        pos: start,
                        end: pos,
                        flow,
                    });
                }
            }
            Event::MappingEnd => {
                if let Some(Frame::Map(items, start)) = self.stack.pop() {
                    let mut entries = Vec::with_capacity(items.len() / 2);
                    let mut it = items.into_iter();
                    while let (Some(k), Some(v)) = (it.next(), it.next()) {
                        entries.push((k, v));
                    }
                    self.push(Node::Map {
                        entries,
                        pos: start,
                    });
                }
            }
            _ => {}
        }
    }
}

/// Parses YAML text into at most one document (`None` for an empty file).
pub fn parse_document(file: &str, text: &str) -> Result<Option<Node>, IgnoreError> {
    let chars: Vec<char> = text.chars().collect();
    let mut builder = Builder {
        chars: &chars,
        stack: Vec::new(),
        docs: Vec::new(),
        too_deep: None,
    };
    let mut parser = Parser::new_from_str(text);
    parser
        .load(&mut builder, true)
        .map_err(|e| IgnoreError::Syntax {
            file: file.to_string(),
            line: e.marker().line(),
            column: e.marker().col() + 1,
            message: e.info().to_string(),
        })?;
    if let Some((pos, _)) = builder.too_deep {
        return Err(IgnoreError::Invalid {
            file: file.to_string(),
            line: pos.line,
            column: pos.column,
            message: format!("nested deeper than {MAX_DEPTH} levels"),
        });
    }
    if builder.docs.len() > 1 {
        let pos = builder.docs.get(1).map(Node::pos).unwrap_or_default();
        return Err(IgnoreError::Invalid {
            file: file.to_string(),
            line: pos.line,
            column: pos.column,
            message: "the ignore file holds one YAML document".into(),
        });
    }
    Ok(builder.docs.into_iter().next())
}
