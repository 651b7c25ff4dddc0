"""domain.content: the documents and the settings singletons (contacts)."""
