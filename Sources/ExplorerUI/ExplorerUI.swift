// The UI layer: state, actions, reducer and the pure render function.
