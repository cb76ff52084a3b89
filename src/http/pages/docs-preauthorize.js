// Served by @fastify/swagger-ui as a theme script, after its swagger-initializer.js and before the page's
// load event, when that initializer creates the UI. It wraps SwaggerUIBundle so that, once the document is
// rendered (onComplete), the demo API key that the server passes in the UI config is authorized: "Try it
// out" then works at once. A key the reader authorized before (persistAuthorization keeps it in
// localStorage) is left alone.
(() => {
  const original = window.SwaggerUIBundle;
  if (typeof original !== 'function') return;

  function withDemoKey(config) {
    const demoKey = config.altsportsDemoKey;
    const onComplete = config.onComplete;
    const ui = original({
      ...config,
      onComplete() {
        const authorized = ui.authSelectors.authorized();
        if (demoKey && !authorized?.get?.('ApiKeyAuth')) ui.preauthorizeApiKey('ApiKeyAuth', demoKey);
        document.documentElement.dataset.docsReady = 'true';
        if (typeof onComplete === 'function') onComplete();
      },
    });
    window.ui = ui;
    return ui;
  }
  // The initializer reads SwaggerUIBundle.presets and SwaggerUIBundle.plugins.
  Object.assign(withDemoKey, original);
  window.SwaggerUIBundle = withDemoKey;
})();
