// Steps through the solve in the JSON of #page-data: draws the candidates, the current step's
// marks and its chain over the grid's picture, lists the steps, and moves with the buttons, the
// arrow keys (Home and End too), a click in the list and the fragment (#step=K, #step=end,
// #play).
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('page-data').textContent);
  var SVG_NS = 'http://www.w3.org/2000/svg';
  var n = data.size;
  var frame = data.frame;
  var s = frame.cell;
  // Candidates sit in a sub x sub block of their cell (3 x 3 on a 9 x 9 grid).
  var sub = Math.ceil(Math.sqrt(n));
  var total = data.steps.length;
  var picture = document.querySelector('#board svg');
  // Shading goes under the picture's grid lines and givens (just above its white background),
  // everything else over the picture.
  var under = make('g', { class: 'overlay under' });
  picture.insertBefore(under, picture.firstElementChild.nextSibling);
  var overlay = make('g', { class: 'overlay' });
  picture.appendChild(overlay);
  var items = [];
  var position = 0;

  function make(name, attrs, text) {
    var node = document.createElementNS(SVG_NS, name);
    Object.keys(attrs).forEach(function (key) {
      node.setAttribute(key, attrs[key]);
    });
    if (text !== undefined) {
      node.textContent = text;
    }
    return node;
  }

  function add(name, attrs, text) {
    overlay.appendChild(make(name, attrs, text));
  }

  function clear(layer) {
    while (layer.firstChild) {
      layer.removeChild(layer.firstChild);
    }
  }

  function cellCorner(row, col) {
    return [frame.x + (col - 1) * s, frame.y + (row - 1) * s];
  }

  function candidateCentre(row, col, digit) {
    var corner = cellCorner(row, col);
    var i = digit - 1;
    return [corner[0] + ((i % sub) + 0.5) * s / sub, corner[1] + (Math.floor(i / sub) + 0.5) * s / sub];
  }

  function key(row, col, digit) {
    return row + ',' + col + ',' + digit;
  }

  function text(at, size, content, cls) {
    add('text', {
      x: at[0],
      y: at[1] + 0.35 * size,
      'font-size': size,
      'text-anchor': 'middle',
      class: cls
    }, String(content));
  }

  function shade(cells, cls) {
    cells.forEach(function (rc) {
      var corner = cellCorner(rc[0], rc[1]);
      under.appendChild(make('rect', { x: corner[0], y: corner[1], width: s, height: s, class: cls }));
    });
  }

  function centroid(candidates) {
    var x = 0;
    var y = 0;
    candidates.forEach(function (c) {
      var p = candidateCentre(c[0], c[1], c[2]);
      x += p[0];
      y += p[1];
    });
    return [x / candidates.length, y / candidates.length];
  }

  // A link from one node's candidates to the next, stopped short of both so the digits stay
  // readable, with a dot where it arrives.
  function link(l) {
    var a = centroid(l.from);
    var b = centroid(l.to);
    var dx = b[0] - a[0];
    var dy = b[1] - a[1];
    var length = Math.sqrt(dx * dx + dy * dy);
    var cut = Math.min(0.3 * s / sub, length / 3);
    var ux = length > 0 ? dx / length : 0;
    var uy = length > 0 ? dy / length : 0;
    add('line', {
      x1: a[0] + ux * cut,
      y1: a[1] + uy * cut,
      x2: b[0] - ux * cut,
      y2: b[1] - uy * cut,
      'stroke-width': 0.05 * s,
      class: 'link ' + (l.strong ? 'strong' : 'weak')
    });
    add('circle', { cx: b[0] - ux * cut, cy: b[1] - uy * cut, r: 0.04 * s, class: 'end' });
  }

  function roles(step) {
    var of = {};
    if (!step) {
      return of;
    }
    step.premises.forEach(function (c) { of[key(c[0], c[1], c[2])] = 'premise'; });
    step.colours.forEach(function (candidates, k) {
      candidates.forEach(function (c) { of[key(c[0], c[1], c[2])] = 'colour-' + k; });
    });
    step.eliminations.forEach(function (c) { of[key(c[0], c[1], c[2])] = 'eliminated'; });
    step.placements.forEach(function (c) { of[key(c[0], c[1], c[2])] = 'placed'; });
    return of;
  }

  function drawCandidates(board, step) {
    var role = roles(step);
    var size = 0.8 * s / sub;
    var r = 0.45 * s / sub;
    for (var i = 0; i < n * n; i++) {
      var row = Math.floor(i / n) + 1;
      var col = (i % n) + 1;
      board.candidates[i].forEach(function (d) {
        var at = candidateCentre(row, col, d);
        var is = role[key(row, col, d)];
        if (is) {
          add('circle', { cx: at[0], cy: at[1], r: r, class: 'mark ' + is });
        }
        text(at, size, d, 'cand' + (is ? ' ' + is : ''));
        if (is === 'eliminated') {
          add('line', {
            x1: at[0] - r, y1: at[1] + r, x2: at[0] + r, y2: at[1] - r,
            'stroke-width': 0.03 * s, class: 'strike'
          });
        }
      });
    }
  }

  function drawDigits(board) {
    var givens = data.boards[0].values;
    for (var i = 0; i < n * n; i++) {
      var v = board.values[i];
      if (v && !givens[i]) {
        var centre = [frame.x + ((i % n) + 0.5) * s, frame.y + (Math.floor(i / n) + 0.5) * s];
        text(centre, (v > 9 ? 0.5 : 0.6) * s, v, 'digit');
      }
    }
  }

  // The digits of the grid row by row, '.' for an empty cell (separated by commas above 9).
  function gridText(board) {
    var cells = board.values.map(function (v) { return v ? String(v) : '.'; });
    return cells.join(n > 9 ? ',' : '');
  }

  function draw() {
    clear(under);
    clear(overlay);
    var board = data.boards[position];
    var step = position < total ? data.steps[position] : null;
    if (step) {
      shade(step.houses, 'house');
      shade(step.cells, 'cell');
      shade(step.fins, 'fin');
      step.links.forEach(link);
    }
    drawDigits(board);
    drawCandidates(board, step);
    var label = step ? String(position + 1) : 'end';
    document.body.setAttribute('data-step', label);
    document.getElementById('position').textContent = step
      ? 'step ' + (position + 1) + ' of ' + total
      : 'end (' + total + ' steps)';
    document.getElementById('current').textContent = step ? step.text : data.grade.outcome;
    document.getElementById('grid').textContent = gridText(board);
    document.getElementById('prev').disabled = position === 0;
    document.getElementById('next').disabled = position === total;
    items.forEach(function (item, i) {
      item.className = (i === position ? 'current' : '') + (i === total ? ' end' : '');
    });
    scrollList(items[position]);
  }

  // The list scrolled (not the page) so that the current item shows.
  function scrollList(item) {
    var ol = item.parentNode;
    if (item.offsetTop < ol.scrollTop) {
      ol.scrollTop = item.offsetTop;
    } else if (item.offsetTop + item.offsetHeight > ol.scrollTop + ol.clientHeight) {
      ol.scrollTop = item.offsetTop + item.offsetHeight - ol.clientHeight;
    }
  }

  function go(to) {
    var next = Math.max(0, Math.min(total, to));
    if (next === position && items.length) {
      return;
    }
    position = next;
    draw();
    var fragment = '#step=' + (position < total ? position + 1 : 'end');
    if (location.hash !== fragment && history.replaceState) {
      history.replaceState(null, '', fragment);
    }
  }

  function fromFragment() {
    var m = /^#step=(\d+|end|last)$/.exec(location.hash);
    if (!m) {
      return null;
    }
    return m[1] === 'end' || m[1] === 'last' ? total : parseInt(m[1], 10) - 1;
  }

  function header() {
    var g = data.grade;
    document.title = 'explain: ' + data.title;
    document.getElementById('title').textContent = data.title;
    var p = document.getElementById('grade');
    var level = document.createElement('b');
    level.textContent = g.level;
    p.appendChild(level);
    p.appendChild(document.createTextNode(
      ' \u00b7 score ' + g.score + ' \u00b7 rating ' + g.rating.toFixed(1) +
      ' \u00b7 hardest: ' + g.hardest + ' \u00b7 ' + g.outcome));
  }

  function list() {
    var ol = document.getElementById('steps');
    data.steps.forEach(function (step, i) {
      var li = document.createElement('li');
      li.textContent = step.text;
      li.title = step.name + ' (score ' + step.score + ', rating ' + step.rating + ')';
      ol.appendChild(li);
      items.push(li);
      li.addEventListener('click', function () { go(i); });
    });
    var end = document.createElement('li');
    end.textContent = data.grade.outcome;
    ol.appendChild(end);
    items.push(end);
    end.addEventListener('click', function () { go(total); });
  }

  function onKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    var moves = { ArrowLeft: position - 1, ArrowRight: position + 1, Home: 0, End: total };
    if (event.key in moves) {
      event.preventDefault();
      go(moves[event.key]);
    }
  }

  // #play: the right arrow pressed until the end, a click on the first step of the list, End,
  // back and forward; the data-trail attribute of the body lists where each move led.
  function play() {
    var trail = [];
    function press(name) {
      document.dispatchEvent(new KeyboardEvent('keydown', { key: name, bubbles: true }));
    }
    function note() {
      trail.push(document.body.getAttribute('data-step'));
    }
    for (var i = 0; i < total; i++) {
      press('ArrowRight');
    }
    note();
    items[0].click();
    note();
    press('End');
    note();
    document.getElementById('prev').click();
    note();
    document.getElementById('next').click();
    note();
    document.body.setAttribute('data-trail', trail.join(','));
  }

  header();
  list();
  document.getElementById('prev').addEventListener('click', function () { go(position - 1); });
  document.getElementById('next').addEventListener('click', function () { go(position + 1); });
  document.addEventListener('keydown', onKey);
  window.addEventListener('hashchange', function () {
    var to = fromFragment();
    if (to !== null) {
      go(to);
    }
  });
  var start = fromFragment();
  position = start === null ? 0 : Math.max(0, Math.min(total, start));
  draw();
  if (location.hash === '#play') {
    play();
  }
})();
