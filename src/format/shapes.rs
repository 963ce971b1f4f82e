//! Shapes shared within a batch ([`Shapes`]) and region labels numbered in order of first
//! appearance.

use super::*;

/// Builds each geometry once per batch and hands out shared [`Arc<Shape>`]s.
pub(super) struct Shapes {
    pub(super) diagonals: bool,
    pub(super) boxes: HashMap<usize, Arc<Shape>>,
    pub(super) jigsaws: HashMap<Vec<u32>, Arc<Shape>>,
    /// Shapes a puzzle asks for itself (JSON objects): by side, regions and diagonals.
    pub(super) shaped: HashMap<(usize, Option<Regions>, bool), Arc<Shape>>,
}

impl Shapes {
    pub(super) fn new(diagonals: bool) -> Shapes {
        Shapes {
            diagonals,
            boxes: HashMap::new(),
            jigsaws: HashMap::new(),
            shaped: HashMap::new(),
        }
    }

    pub(super) fn standard(&mut self, n: usize, at: &Token<'_>) -> Result<Arc<Shape>, ParseError> {
        if let Some(s) = self.boxes.get(&n) {
            return Ok(s.clone());
        }
        let s = Arc::new(Shape::standard(n, self.diagonals).map_err(|e| model_error(at, e))?);
        self.boxes.insert(n, s.clone());
        Ok(s)
    }

    /// A shape of side `n` with `regions` (`None`: the standard boxes), with the diagonals when
    /// the options or `diagonals` ask for them.
    pub(super) fn shape(
        &mut self,
        n: usize,
        regions: Option<Regions>,
        diagonals: bool,
        at: &Token<'_>,
    ) -> Result<Arc<Shape>, ParseError> {
        let diagonals = diagonals || self.diagonals;
        let key = (n, regions, diagonals);
        if let Some(s) = self.shaped.get(&key) {
            return Ok(s.clone());
        }
        let s = match &key.1 {
            None => Shape::standard(n, diagonals),
            Some(r) => Shape::new(n, r.clone(), diagonals),
        }
        .map_err(|e| model_error(at, e))?;
        let s = Arc::new(s);
        self.shaped.insert(key, s.clone());
        Ok(s)
    }

    pub(super) fn jigsaw(
        &mut self,
        n: usize,
        map: Vec<u32>,
        at: &Token<'_>,
    ) -> Result<Arc<Shape>, ParseError> {
        if let Some(s) = self.jigsaws.get(&map) {
            return Ok(s.clone());
        }
        let s = Shape::new(n, Regions::Jigsaw(map.clone()), self.diagonals)
            .map_err(|e| model_error(at, e))?;
        let s = Arc::new(s);
        self.jigsaws.insert(map, s.clone());
        Ok(s)
    }
}

/// A model error located at a token.
pub(super) fn model_error(at: &Token<'_>, e: ModelError) -> ParseError {
    ParseError::at(at, e.to_string())
}

/// Numbers region labels in order of first appearance and checks `n` regions of `n` cells.
pub(super) struct RegionLabels {
    pub(super) n: usize,
    pub(super) index: HashMap<String, u32>,
    /// `(first token, size)` of every region.
    pub(super) regions: Vec<(String, Token<'static>, usize)>,
    pub(super) map: Vec<u32>,
}

impl RegionLabels {
    pub(super) fn new(n: usize) -> RegionLabels {
        RegionLabels {
            n,
            index: HashMap::new(),
            regions: Vec::new(),
            map: Vec::with_capacity(n * n),
        }
    }

    /// Adds the next cell's label. Labels past the `n`th distinct one are kept too: [`Self::finish`]
    /// then tells which one is too many.
    pub(super) fn push(&mut self, label: &str, at: &Token<'_>) {
        let key = label.to_ascii_lowercase();
        let r = *self.index.entry(key).or_insert_with(|| {
            let place = Token {
                line: at.line,
                col: at.col,
                text: "",
            };
            self.regions.push((label.to_string(), place, 0));
            self.regions.len() as u32 - 1
        });
        self.regions[r as usize].2 += 1;
        self.map.push(r);
    }

    /// The region map, once `n` regions of `n` cells each are known; `end` locates "too few".
    pub(super) fn finish(self, end: &Token<'_>) -> Result<Vec<u32>, ParseError> {
        let n = self.n;
        // More than n labels: the one on fewest cells (the first such) is the one too many, as
        // a mistyped label is, and is reported where it first appears.
        let fewest = self.regions.iter().min_by_key(|r| r.2);
        if let (true, Some((label, at, size))) = (self.regions.len() > n, fewest) {
            return Err(ParseError::at(
                at,
                format!(
                    "region label '{label}' (on {size} cell{}) makes {} distinct labels, but \
                     a {} grid has {n} regions",
                    if *size == 1 { "" } else { "s" },
                    self.regions.len(),
                    describe(n)
                ),
            ));
        }
        if self.regions.len() < n {
            return Err(ParseError::at(
                end,
                format!(
                    "{} distinct region labels, a {} grid needs {n} regions of {n} cells",
                    self.regions.len(),
                    describe(n)
                ),
            ));
        }
        if let Some((label, at, size)) = self.regions.iter().find(|r| r.2 != n) {
            return Err(ParseError::at(
                at,
                format!("region '{label}' has {size} cells, every region needs {n} ({n} regions of {n} cells)"),
            ));
        }
        Ok(self.map)
    }
}
