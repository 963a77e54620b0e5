//! A deliberately small view of clang's JSON AST (`-Xclang -ast-dump=json`).
//!
//! Only the fields lowering uses are read; everything else is ignored so that clang 14 to 19
//! all work. Clang omits `file` and `line` from a printed location when they equal the previous
//! printed location; [`resolve_locations`] recovers them by walking the tree in print order.
//!
//! Owns the JSON's shape and the walks that need no C semantics (locations, renaming a file,
//! skipping wrapper nodes); it does not run clang or give nodes a meaning ([`super::lower`] does).

use serde::Deserialize;
use std::sync::Arc;

/// `{"qualType": …, "desugaredQualType": …}`.
#[derive(Debug, Default, Deserialize, Clone)]
#[serde(default)]
pub struct TypeInfo {
    /// The type as written.
    #[serde(rename = "qualType")]
    pub qual_type: String,
    /// The type with sugar (typedefs) removed, when different.
    #[serde(rename = "desugaredQualType")]
    pub desugared: Option<String>,
}

impl TypeInfo {
    /// The most useful spelling: the desugared one when present.
    pub fn best(&self) -> &str {
        self.desugared.as_deref().unwrap_or(&self.qual_type)
    }
}

/// One printed location (`writeBareSourceLocation`).
#[derive(Debug, Default, Deserialize, Clone)]
#[serde(default)]
pub struct BareLoc {
    /// The file, printed only when it changes.
    pub file: Option<String>,
    /// The line, printed only when it changes.
    pub line: Option<u32>,
    /// The column.
    pub col: Option<u32>,
    /// Length of the token starting here.
    #[serde(rename = "tokLen")]
    pub tok_len: Option<u32>,
    /// Byte offset in the file.
    pub offset: Option<u64>,
}

/// A location: bare, or split into spelling and expansion locations inside macros.
#[derive(Debug, Default, Deserialize, Clone)]
#[serde(default)]
pub struct Loc {
    #[serde(flatten)]
    pub bare: BareLoc,
    /// Where the text was spelled (inside a macro definition).
    #[serde(rename = "spellingLoc")]
    pub spelling: Option<BareLoc>,
    /// Where the macro was expanded.
    #[serde(rename = "expansionLoc")]
    pub expansion: Option<BareLoc>,
}

/// A source range.
#[derive(Debug, Default, Deserialize, Clone)]
#[serde(default)]
pub struct Range {
    /// First token.
    pub begin: Loc,
    /// Last token.
    pub end: Loc,
}

/// A resolved location: file, line, column and token length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pos {
    /// The file as clang names it.
    pub file: Arc<str>,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub col: u32,
    /// Length of the token at this position.
    pub tok_len: u32,
}

/// `referencedDecl` of a `DeclRefExpr`.
#[derive(Debug, Default, Deserialize, Clone)]
#[serde(default)]
pub struct DeclRef {
    /// The declaration's id.
    pub id: String,
    /// Its kind (`VarDecl`, `FunctionDecl`, …).
    pub kind: String,
    /// Its name.
    pub name: String,
    /// Its type.
    #[serde(rename = "type")]
    pub ty: TypeInfo,
}

/// A base class of a C++ record.
#[derive(Debug, Default, Deserialize, Clone)]
#[serde(default)]
pub struct Base {
    /// The base type.
    #[serde(rename = "type")]
    pub ty: TypeInfo,
}

/// One AST node, of any kind.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Node {
    /// Node id (pointer value), used to link references to declarations.
    pub id: String,
    /// `FunctionDecl`, `BinaryOperator`, …; empty for the `{}` placeholders of absent children.
    pub kind: String,
    /// Declared or referenced name.
    pub name: Option<String>,
    /// The node's type.
    #[serde(rename = "type")]
    pub ty: Option<TypeInfo>,
    /// The declaration's location.
    pub loc: Option<Loc>,
    /// The source range.
    pub range: Option<Range>,
    /// Children in source order.
    pub inner: Vec<Node>,
    /// The id of the previous declaration of the same entity (`previousDecl`), on a
    /// redeclaration: a function declared again after a header declared it.
    #[serde(rename = "previousDecl")]
    pub previous_decl: Option<String>,
    /// Operator spelling.
    pub opcode: Option<String>,
    /// Cast kind of a cast expression.
    #[serde(rename = "castKind")]
    pub cast_kind: Option<String>,
    /// Literal value (string for integer and float literals, number or bool otherwise).
    pub value: Option<serde_json::Value>,
    /// The declaration a `DeclRefExpr` names.
    #[serde(rename = "referencedDecl")]
    pub referenced_decl: Option<DeclRef>,
    /// The member a `MemberExpr` names.
    #[serde(rename = "referencedMemberDecl")]
    pub referenced_member_decl: Option<String>,
    /// `->` rather than `.`.
    #[serde(rename = "isArrow")]
    pub is_arrow: bool,
    /// A virtual method (declared so, or overriding one).
    #[serde(rename = "virtual")]
    pub is_virtual: bool,
    /// `static`, `extern`, …
    #[serde(rename = "storageClass")]
    pub storage_class: Option<String>,
    /// Initializer style of a `VarDecl` (`c`, `call`, `list`).
    pub init: Option<String>,
    /// `lvalue`, `xvalue` or `prvalue`.
    #[serde(rename = "valueCategory")]
    pub value_category: Option<String>,
    /// Postfix `++`/`--`.
    #[serde(rename = "isPostfix")]
    pub is_postfix: bool,
    /// Implicitly generated declaration.
    #[serde(rename = "isImplicit")]
    pub is_implicit: bool,
    /// An attribute clang added itself (`CUDAConstantAttr` of a `const` global).
    pub implicit: bool,
    /// Argument type of `sizeof`/`alignof`.
    #[serde(rename = "argType")]
    pub arg_type: Option<TypeInfo>,
    /// Computation type of a compound assignment's left operand.
    #[serde(rename = "computeLHSType")]
    pub compute_lhs_type: Option<TypeInfo>,
    /// Computation result type of a compound assignment.
    #[serde(rename = "computeResultType")]
    pub compute_result_type: Option<TypeInfo>,
    /// Whether an `IfStmt` has an init statement.
    #[serde(rename = "hasInit")]
    pub has_init: bool,
    /// Whether an `IfStmt`/`WhileStmt`/`SwitchStmt` declares a condition variable.
    #[serde(rename = "hasVar")]
    pub has_var: bool,
    /// Whether an `IfStmt` has an `else`.
    #[serde(rename = "hasElse")]
    pub has_else: bool,
    /// Whether a record declaration is a complete definition.
    #[serde(rename = "completeDefinition")]
    pub complete_definition: bool,
    /// `struct`, `class` or `union` for records.
    #[serde(rename = "tagUsed")]
    pub tag_used: Option<String>,
    /// The declaration a `RecordType` names.
    pub decl: Option<DeclRef>,
    /// The namespace a `NamespaceAliasDecl` names (`namespace cg = cooperative_groups;`).
    #[serde(rename = "aliasedNamespace")]
    pub aliased_namespace: Option<DeclRef>,
    /// Base classes of a C++ record.
    pub bases: Vec<Base>,
    /// The fixed underlying type of an enum (`enum class E : unsigned char`).
    #[serde(rename = "fixedUnderlyingType")]
    pub fixed_underlying_type: Option<TypeInfo>,
    /// A `VarDecl` declared `constexpr`.
    pub constexpr: bool,
    /// The label a `GotoStmt` jumps to (the `declId` of its `LabelStmt`).
    #[serde(rename = "targetLabelDeclId")]
    pub target_label_decl_id: Option<String>,
    /// The label declared by a `LabelStmt` (targeted by `GotoStmt`s).
    #[serde(rename = "declId")]
    pub decl_id: Option<String>,
    /// The type of the constructor a `CXXConstructExpr` calls (`void (const float)`).
    #[serde(rename = "ctorType")]
    pub ctor_type: Option<TypeInfo>,
    /// The field a `CXXCtorInitializer` initializes.
    #[serde(rename = "anyInit")]
    pub any_init: Option<DeclRef>,
    /// The base class a `CXXCtorInitializer` initializes.
    #[serde(rename = "baseInit")]
    pub base_init: Option<TypeInfo>,
    /// Resolved `loc` (filled by [`resolve_locations`]).
    #[serde(skip)]
    pub pos: Option<Pos>,
    /// Resolved range begin (filled by [`resolve_locations`]).
    #[serde(skip)]
    pub begin: Option<Pos>,
    /// Resolved range end (filled by [`resolve_locations`]).
    #[serde(skip)]
    pub end: Option<Pos>,
    /// Where the range's first token is spelled, when the node comes from a macro expansion
    /// (the macro's definition; [`Node::begin`] is then where the macro was expanded). Filled
    /// by [`resolve_locations`].
    #[serde(skip)]
    pub spelled: Option<Pos>,
}

impl Node {
    /// The type spelling (desugared when available), or `""`.
    pub fn type_str(&self) -> &str {
        self.ty.as_ref().map(|t| t.best()).unwrap_or("")
    }

    /// Whether this is an absent-child placeholder (`{}`).
    pub fn is_empty(&self) -> bool {
        self.kind.is_empty()
    }

    /// Whether the node is an lvalue (or xvalue).
    pub fn is_glvalue(&self) -> bool {
        matches!(self.value_category.as_deref(), Some("lvalue") | Some("xvalue"))
    }

    /// Whether an attribute child of this kind is present.
    pub fn has_attr(&self, kind: &str) -> bool {
        self.inner.iter().any(|c| c.kind == kind)
    }

    /// The children that are not attributes or other non-code entries.
    pub fn code_children(&self) -> impl Iterator<Item = &Node> {
        self.inner
            .iter()
            .filter(|c| !c.kind.ends_with("Attr") && c.kind != "TemplateArgument")
    }
}

/// The location tracker: the last printed file and line.
struct Tracker {
    file: Arc<str>,
    line: u32,
}

impl Tracker {
    fn bare(&mut self, b: &BareLoc) -> Option<Pos> {
        if let Some(f) = &b.file
            && *f != *self.file
        {
            self.file = Arc::from(f.as_str());
        }
        if let Some(l) = b.line {
            self.line = l;
        }
        let col = b.col?;
        Some(Pos {
            file: self.file.clone(),
            line: self.line,
            col,
            tok_len: b.tok_len.unwrap_or(1),
        })
    }

    fn loc(&mut self, l: &Loc) -> Option<Pos> {
        self.loc_spelled(l).0
    }

    /// The (expansion, spelling) positions of `l`; the spelling position only inside a macro.
    fn loc_spelled(&mut self, l: &Loc) -> (Option<Pos>, Option<Pos>) {
        if l.spelling.is_some() || l.expansion.is_some() {
            let spelled = l.spelling.as_ref().and_then(|s| self.bare(s));
            let expanded = match &l.expansion {
                Some(e) => self.bare(e),
                None => None,
            };
            (expanded, spelled)
        } else {
            (self.bare(&l.bare), None)
        }
    }
}

/// Fill [`Node::pos`], [`Node::begin`] and [`Node::end`] for the whole tree, in print order;
/// then drop documentation comments (`FullComment`, which clang attaches to the declaration a
/// `///` or `/** */` comment precedes, a local's too), which carry nothing to verify. They are
/// dropped after the walk: their locations advance the print-order position like any node's.
pub fn resolve_locations(root: &mut Node) {
    let mut t = Tracker {
        file: Arc::from(""),
        line: 0,
    };
    walk(root, &mut t);
}

/// Renames the file `from` to `to` in every resolved position of the tree (for a copy of a
/// source file that must be reported as the original).
pub fn rename_file(n: &mut Node, from: &str, to: &Arc<str>) {
    for p in [&mut n.pos, &mut n.begin, &mut n.end, &mut n.spelled]
        .into_iter()
        .flatten()
    {
        if &*p.file == from {
            p.file = to.clone();
        }
    }
    for c in n.inner.iter_mut() {
        rename_file(c, from, to);
    }
}

/// `n` without the wrappers that do not change its value: parentheses, cleanups, temporaries,
/// and no-op or function-to-pointer implicit casts.
pub fn strip_parens(n: &Node) -> &Node {
    let mut n = n;
    while matches!(
        n.kind.as_str(),
        "ParenExpr" | "ExprWithCleanups" | "MaterializeTemporaryExpr" | "CXXBindTemporaryExpr"
    ) || (n.kind == "ImplicitCastExpr"
        && matches!(
            n.cast_kind.as_deref(),
            Some("NoOp") | Some("FunctionToPointerDecay") | Some("BuiltinFnToFnPtr")
        ))
    {
        match n.inner.first() {
            Some(c) => n = c,
            None => break,
        }
    }
    n
}

fn walk(n: &mut Node, t: &mut Tracker) {
    if let Some(l) = &n.loc {
        n.pos = t.loc(l);
    }
    if let Some(r) = &n.range {
        (n.begin, n.spelled) = t.loc_spelled(&r.begin);
        n.end = t.loc(&r.end);
    }
    for c in n.inner.iter_mut() {
        walk(c, t);
    }
    n.inner.retain(|c| c.kind != "FullComment");
}
