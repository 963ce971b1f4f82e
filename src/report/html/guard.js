// Errors of the page's script, and what it writes to the console as an error, go into the page
// (and into the data-error attribute of the body, which the browser test reads).
(function () {
  'use strict';
  function report(message) {
    var body = document.body || document.documentElement;
    if (!body.hasAttribute('data-error')) {
      body.setAttribute('data-error', String(message));
    }
    var box = document.getElementById('error');
    if (box) {
      box.textContent = 'Error: ' + message;
      box.hidden = false;
    }
  }
  window.reportPageError = report;
  window.addEventListener('error', function (event) {
    report(event.message || 'error');
  });
  window.addEventListener('unhandledrejection', function (event) {
    report(event.reason || 'unhandled rejection');
  });
  var consoleError = console.error;
  console.error = function () {
    report(Array.prototype.join.call(arguments, ' '));
    return consoleError.apply(console, arguments);
  };
})();
